import { postgresLiteral, ScriptStatements } from './postgres-literals';

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

describe('ScriptStatements', () => {
  const sql = 'SELECT $1::int + $2::int AS n';

  it("prepares a statement on a session's first call and executes it with literals", () => {
    const statements = new ScriptStatements('probe');
    const session = {};

    const first = statements.call(session, sql, [1, "it's"]);

    expect(first.text).toBe(`PREPARE probe_1 AS ${sql}; EXECUTE probe_1(1, 'it''s')`);
  });

  it('executes without preparing again once a script with the PREPARE has run', () => {
    const statements = new ScriptStatements('probe');
    const session = {};
    statements.call(session, sql, [1, 2]).ran();

    expect(statements.call(session, sql, [3, 4]).text).toBe('EXECUTE probe_1(3, 4)');
  });

  it('prepares again under a new name after a script that did not run', () => {
    const statements = new ScriptStatements('probe');
    const session = {};
    statements.call(session, sql, [1, 2]); // failed: ran() never called

    expect(statements.call(session, sql, [1, 2]).text).toBe(`PREPARE probe_2 AS ${sql}; EXECUTE probe_2(1, 2)`);
  });

  it('prepares again under a new name after a failed script on a session that had the statement', () => {
    const statements = new ScriptStatements('probe');
    const session = {};
    statements.call(session, sql, [1, 2]).ran();

    statements.call(session, sql, [3, 4]).failed(); // a stale statement, or the connection failed

    expect(statements.call(session, sql, [5, 6]).text).toBe(`PREPARE probe_2 AS ${sql}; EXECUTE probe_2(5, 6)`);
  });

  it('keeps each session apart, and each statement of a session', () => {
    const statements = new ScriptStatements('probe');
    const a = {};
    const b = {};
    statements.call(a, sql, [1, 2]).ran();

    expect(statements.call(b, sql, [1, 2]).text).toMatch(/^PREPARE probe_2 AS /);
    expect(statements.call(a, 'SELECT $1::text AS t', ['x']).text).toMatch(/^PREPARE probe_3 AS /);
    expect(statements.call(a, sql, [5, 6]).text).toBe('EXECUTE probe_1(5, 6)');
  });

  it('refuses a value it cannot write as a literal', () => {
    expect(() => new ScriptStatements('probe').call({}, sql, [{ a: 1 }, 2])).toThrow(TypeError);
  });
});
