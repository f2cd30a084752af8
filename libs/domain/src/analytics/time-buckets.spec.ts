import { billingPeriodStart, roundTo, startOfUtcDay, startOfUtcHour, utcDate } from './time-buckets';

const at = (iso: string): Date => new Date(iso);

describe('time buckets', () => {
  it('should floor to the UTC day and hour whatever the local zone', () => {
    expect(startOfUtcDay(at('2026-11-25T23:59:59.999Z'))).toEqual(at('2026-11-25T00:00:00Z'));
    expect(startOfUtcHour(at('2026-11-25T13:59:59.999Z'))).toEqual(at('2026-11-25T13:00:00Z'));
    expect(utcDate(at('2026-11-25T23:59:59Z'))).toBe('2026-11-25');
  });

  it('should round half away from zero on the decimals asked and never answer -0', () => {
    expect(roundTo(0.123456789, 4)).toBe(0.1235);
    expect(Object.is(roundTo(-0.00001, 2), 0)).toBe(true);
  });
});

describe('billingPeriodStart', () => {
  it('should start this month on the reset day once it is reached', () => {
    expect(billingPeriodStart(at('2026-11-15T00:00:00Z'), 15)).toEqual(at('2026-11-15T00:00:00Z'));
    expect(billingPeriodStart(at('2026-11-25T08:00:00Z'), 1)).toEqual(at('2026-11-01T00:00:00Z'));
  });

  it('should start last month before the reset day, across a year boundary', () => {
    expect(billingPeriodStart(at('2026-11-14T23:59:59Z'), 15)).toEqual(at('2026-10-15T00:00:00Z'));
    expect(billingPeriodStart(at('2026-01-10T00:00:00Z'), 28)).toEqual(at('2025-12-28T00:00:00Z'));
  });
});
