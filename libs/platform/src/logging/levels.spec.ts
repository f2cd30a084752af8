import {
  LOG_LEVEL_NAMES,
  levelValue,
  maxLevel,
  parseLogLevelName,
  toPinoLevel,
  toWireLevel,
  wireLevelForValue,
} from './levels';

describe('levels', () => {
  it('should map settings names to pino levels when warning and critical differ', () => {
    expect(LOG_LEVEL_NAMES.map(toPinoLevel)).toEqual(['debug', 'info', 'warn', 'error', 'fatal']);
  });

  it('should map pino numeric levels to wire labels when serializing', () => {
    expect([10, 20, 30, 40, 50, 60].map(wireLevelForValue)).toEqual([
      'DEBUG',
      'DEBUG',
      'INFO',
      'WARNING',
      'ERROR',
      'CRITICAL',
    ]);
  });

  it('should round-trip settings names through pino values to wire labels when consistent', () => {
    for (const name of LOG_LEVEL_NAMES) {
      expect(wireLevelForValue(levelValue(name))).toBe(toWireLevel(name));
    }
  });

  it('should parse level names case-insensitively when valid and reject others', () => {
    expect(parseLogLevelName('WARNING')).toBe('warning');
    expect(parseLogLevelName(' debug ')).toBe('debug');
    expect(parseLogLevelName('warn')).toBeUndefined();
    expect(parseLogLevelName(30)).toBeUndefined();
  });

  it('should pick the more severe level when comparing two', () => {
    expect(maxLevel('debug', 'error')).toBe('error');
    expect(maxLevel('critical', 'info')).toBe('critical');
  });
});
