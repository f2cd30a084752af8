import { inlinePostgresParameters, postgresLiteral } from './postgres-literals';

describe('postgresLiteral', () => {
  it('writes null, numbers, booleans and dates', () => {
    expect(postgresLiteral(null)).toBe('NULL');
    expect(postgresLiteral(undefined)).toBe('NULL');
    expect(postgresLiteral(0.125)).toBe('0.125');
    expect(postgresLiteral(-3)).toBe('-3');
    expect(postgresLiteral(true)).toBe('TRUE');
    expect(postgresLiteral(new Date('2026-03-01T10:15:00.000Z'))).toBe("'2026-03-01T10:15:00.000Z'");
  });

  it('escapes quotes and backslashes in text', () => {
    expect(postgresLiteral("it's")).toBe("'it''s'");
    expect(postgresLiteral('a\\b')).toBe(" E'a\\\\b'");
    expect(postgresLiteral("x'); DROP TABLE tasks; --")).toBe("'x''); DROP TABLE tasks; --'");
  });

  it('refuses what it cannot write safely', () => {
    expect(() => postgresLiteral(Number.NaN)).toThrow(TypeError);
    expect(() => postgresLiteral(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(() => postgresLiteral(new Date('nope'))).toThrow(TypeError);
    expect(() => postgresLiteral({ a: 1 })).toThrow(TypeError);
    expect(() => postgresLiteral(10n)).toThrow(TypeError);
  });
});

describe('inlinePostgresParameters', () => {
  it('replaces each placeholder by its value, $10 and up included', () => {
    const values = ['a', 2, null, 4, 5, 6, 7, 8, 9, "te'n"];
    expect(inlinePostgresParameters('SELECT $1, $2, $3, $10 WHERE x = $1', values)).toBe(
      "SELECT 'a', 2, NULL, 'te''n' WHERE x = 'a'",
    );
  });

  it('refuses a placeholder without a value', () => {
    expect(() => inlinePostgresParameters('SELECT $2', ['only one'])).toThrow(RangeError);
    expect(() => inlinePostgresParameters('SELECT $0', ['x'])).toThrow(RangeError);
  });
});
