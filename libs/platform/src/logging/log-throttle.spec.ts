import { LogThrottle } from './log-throttle';

describe(LogThrottle.name, () => {
  it('should log the first occurrence, count the rest of the window, and report the count next time', () => {
    let now = 0;
    const throttle = new LogThrottle(60_000, 100, () => now);
    expect(throttle.admit('10.0.0.1')).toEqual({ repeated: 0 });
    for (let second = 1; second < 60; second += 1) {
      now = second * 1000;
      expect(throttle.admit('10.0.0.1')).toBeNull();
    }
    now = 60_000;
    expect(throttle.admit('10.0.0.1')).toEqual({ repeated: 59 });
    expect(throttle.admit('10.0.0.1')).toBeNull();
  });

  it('should throttle each key on its own', () => {
    const throttle = new LogThrottle(60_000, 100, () => 0);
    expect(throttle.admit('a')).toEqual({ repeated: 0 });
    expect(throttle.admit('b')).toEqual({ repeated: 0 });
    expect(throttle.admit('a')).toBeNull();
  });

  it('should stay bounded, forgetting the oldest keys first', () => {
    let now = 0;
    const throttle = new LogThrottle(60_000, 3, () => now);
    for (const key of ['a', 'b', 'c', 'd']) {
      now += 1;
      throttle.admit(key);
    }
    // "a" was forgotten to keep three keys: it logs again at once.
    expect(throttle.admit('a')).toEqual({ repeated: 0 });
    expect(throttle.admit('d')).toBeNull();
  });
});
