import { dayStart, hourStart, isoDay } from '../budget';

import { roundTo } from './time-buckets';

const at = (iso: string): Date => new Date(iso);

describe('time buckets', () => {
  it('should floor to the UTC day and hour whatever the local zone', () => {
    expect(dayStart(at('2026-11-25T23:59:59.999Z'))).toEqual(at('2026-11-25T00:00:00Z'));
    expect(hourStart(at('2026-11-25T13:59:59.999Z'))).toEqual(at('2026-11-25T13:00:00Z'));
    expect(isoDay(at('2026-11-25T23:59:59Z'))).toBe('2026-11-25');
  });

  it('should round half away from zero on the decimals asked and never answer -0', () => {
    expect(roundTo(0.123456789, 4)).toBe(0.1235);
    expect(Object.is(roundTo(-0.00001, 2), 0)).toBe(true);
  });
});
