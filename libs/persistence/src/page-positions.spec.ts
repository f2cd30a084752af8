import { PagePositions } from './page-positions';

describe(PagePositions.name, () => {
  it('should answer the nearest known row at or before an offset, per filter', () => {
    const positions = new PagePositions(1000, 8);
    positions.remember('open', 199, 'task-199');
    positions.remember('open', 399, 'task-399');
    positions.remember('done', 199, 'other-199');

    expect(positions.before('open', 198)).toBeUndefined();
    expect(positions.before('open', 199)).toEqual({ offset: 199, key: 'task-199' });
    expect(positions.before('open', 398)).toEqual({ offset: 199, key: 'task-199' });
    expect(positions.before('open', 5000)).toEqual({ offset: 399, key: 'task-399' });
    expect(positions.before('done', 5000)).toEqual({ offset: 199, key: 'other-199' });
    expect(positions.before('none', 5000)).toBeUndefined();
  });

  it('should keep the latest key of an offset read again', () => {
    const positions = new PagePositions(1000, 8);
    positions.remember('open', 199, 'task-199');
    positions.remember('open', 199, 'task-200');

    expect(positions.before('open', 300)).toEqual({ offset: 199, key: 'task-200' });
  });

  it('should pass over a place older than its age limit for an earlier, recent one', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(10_000);
    try {
      const positions = new PagePositions(1000, 8);
      positions.remember('open', 199, 'task-199');
      now.mockReturnValue(10_500);
      positions.remember('open', 99, 'task-99');
      positions.remember('open', 399, 'task-399');
      now.mockReturnValue(11_000);
      expect(positions.before('open', 250)).toEqual({ offset: 199, key: 'task-199' });
      now.mockReturnValue(11_001);
      expect(positions.before('open', 250)).toEqual({ offset: 99, key: 'task-99' });
      expect(positions.before('open', 450)).toEqual({ offset: 399, key: 'task-399' });
      now.mockReturnValue(11_501);
      expect(positions.before('open', 450)).toBeUndefined();
    } finally {
      now.mockRestore();
    }
  });

  it('should stay bounded: every second place goes when a filter has too many, and every filter when there are too many', () => {
    const positions = new PagePositions(60_000, 2);
    for (let i = 0; i <= 1024; i++) {
      positions.remember('open', i, `task-${i}`);
    }
    // 1,025 places: the odd ones went, and places still spread over the whole list.
    expect(positions.before('open', 1023)).toEqual({ offset: 1022, key: 'task-1022' });
    expect(positions.before('open', 5000)).toEqual({ offset: 1024, key: 'task-1024' });
    positions.remember('done', 1, 'done-1');
    positions.remember('other', 1, 'other-1');

    expect(positions.before('open', 5000)).toBeUndefined();
    expect(positions.before('other', 5)).toEqual({ offset: 1, key: 'other-1' });
  });
});
