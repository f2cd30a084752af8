import { bytes, cell, colorWanted, paint, renderJson, renderRecord, renderTable } from './output';

describe('output for people and scripts', () => {
  it('should colour only a terminal, and never with NO_COLOR, --no-color or TERM=dumb', () => {
    expect(colorWanted(true, {})).toBe(true);
    expect(colorWanted(false, {})).toBe(false);
    expect(colorWanted(true, { NO_COLOR: '1' })).toBe(false);
    expect(colorWanted(true, { NO_COLOR: '' })).toBe(true);
    expect(colorWanted(true, {}, false)).toBe(false);
    expect(colorWanted(true, { TERM: 'dumb' })).toBe(false);
  });

  it('should render cells on one line: - for nothing, lists joined, objects as JSON', () => {
    expect(cell(null)).toBe('-');
    expect(cell(undefined)).toBe('-');
    expect(cell('')).toBe('-');
    expect(cell('two\nlines')).toBe('two lines');
    expect(cell(3.5)).toBe('3.5');
    expect(cell(false)).toBe('false');
    expect(cell(['a', 'b'])).toBe('a, b');
    expect(cell([])).toBe('-');
    expect(cell({ a: 1 })).toBe('{"a":1}');
  });

  it('should align a table under its header and clip long cells', () => {
    const rows = [
      { id: 't1', title: 'Short', status: 'completed' },
      { id: 't22', title: 'x'.repeat(80), status: 'failed' },
    ];
    const columns = [
      { header: 'ID', value: (r: (typeof rows)[0]) => r.id },
      { header: 'TITLE', value: (r: (typeof rows)[0]) => r.title },
      { header: 'STATUS', value: (r: (typeof rows)[0]) => r.status, tone: true },
    ];
    const lines = renderTable(rows, columns, false).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID {3}TITLE {2,}STATUS$/);
    expect(lines[1].indexOf('Short')).toBe(lines[0].indexOf('TITLE'));
    expect(lines[2]).toContain(`${'x'.repeat(59)}…`);
    expect(lines[2].indexOf('failed')).toBe(lines[0].indexOf('STATUS'));
    expect(renderTable([], columns, false)).toBe('(none)\n');
  });

  it('should colour statuses and headers with ANSI codes only when asked, keeping the columns aligned', () => {
    const rows = [{ s: 'completed' }, { s: 'pending' }];
    const coloured = renderTable(rows, [{ header: 'S', value: (r: { s: string }) => r.s, tone: true }], true);
    expect(coloured).toContain('\u001b[32mcompleted\u001b[0m');
    expect(coloured).toContain('\u001b[33mpending\u001b[0m');
    expect(renderTable(rows, [{ header: 'S', value: (r: { s: string }) => r.s }], false)).not.toContain('\u001b');
    expect(paint('x', 'bold', false)).toBe('x');
  });

  it('should render a record with nested objects one level deep', () => {
    const text = renderRecord({ name: 'ada', model: { provider: 'mock', id: 'm' }, tags: ['a'] }, false);
    expect(text).toBe('name            ada\nmodel.provider  mock\nmodel.id        m\ntags            a\n');
  });

  it('should print JSON as one document: indented on a terminal, one line in a pipe', () => {
    expect(renderJson({ a: [1] }, false)).toBe('{"a":[1]}\n');
    expect(renderJson({ a: 1 }, true)).toBe('{\n  "a": 1\n}\n');
    expect(renderJson(undefined, false)).toBe('null\n');
  });

  it('should print sizes for people', () => {
    expect(bytes(512)).toBe('512 B');
    expect(bytes(1536)).toBe('1.5 KB');
    expect(bytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
