import { StatementNames } from './prepared-statements';

describe('StatementNames', () => {
  it('should name a text from its second use and keep that name', () => {
    const names = new StatementNames();

    expect(names.nameOf('SELECT 1 WHERE $1')).toBeNull();
    const name = names.nameOf('SELECT 1 WHERE $1');

    expect(name).toMatch(/^synthorg_\d+$/);
    expect(names.nameOf('SELECT 1 WHERE $1')).toBe(name);
  });

  it('should give every text a name of its own', () => {
    const names = new StatementNames({ threshold: 1 });

    const a = names.nameOf('SELECT $1::int');
    const b = names.nameOf('SELECT $1::text');

    expect(a).not.toBe(b);
    expect(names.nameOf('SELECT $1::int')).toBe(a);
    expect(names.size).toBe(2);
  });

  it('should name from the first use when the threshold is 1', () => {
    expect(new StatementNames({ threshold: 1 }).nameOf('SELECT $1')).not.toBeNull();
  });

  it('should stop naming new texts once it holds its limit, and keep the names it gave', () => {
    const names = new StatementNames({ threshold: 1, texts: 2 });
    const first = names.nameOf('SELECT $1 AS a');
    names.nameOf('SELECT $1 AS b');

    expect(names.nameOf('SELECT $1 AS c')).toBeNull();
    expect(names.nameOf('SELECT $1 AS a')).toBe(first);
    expect(names.size).toBe(2);
  });
});
