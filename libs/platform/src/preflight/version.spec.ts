import { compareToFloor, parseVersion } from './version';

describe(parseVersion.name, () => {
  it('should read the dotted version when git prints its banner', () => {
    expect(parseVersion('git version 2.39.5\n')).toBe('2.39.5');
  });

  it('should take the first dotted version when the banner carries several', () => {
    expect(parseVersion('pg_dump (PostgreSQL) 16.4 (Debian 16.4-1.pgdg120+1)')).toBe('16.4');
    expect(parseVersion('git version 2.39.5 (Apple Git-154)')).toBe('2.39.5');
  });

  it('should stop at the numeric components when a vendor suffix follows', () => {
    expect(parseVersion('git version 2.45.1.windows.1')).toBe('2.45.1');
    expect(parseVersion('tool v2.48.0-rc1')).toBe('2.48.0');
  });

  it('should not read digits glued to a word as a version when the output names an architecture', () => {
    expect(parseVersion('built for x86_64 linux')).toBeNull();
  });

  it('should read a bare major when it follows the word version', () => {
    expect(parseVersion('git version 2')).toBe('2');
  });

  it('should return null when the output has no version', () => {
    expect(parseVersion('')).toBeNull();
    expect(parseVersion('usage: git [--version]')).toBeNull();
    expect(parseVersion('exited with 127')).toBeNull();
  });
});

describe(compareToFloor.name, () => {
  it('should be too-old when the version is below the floor', () => {
    expect(compareToFloor('2.39.5', '2.48')).toBe('too-old');
    expect(compareToFloor('2.47.99', '2.48')).toBe('too-old');
    expect(compareToFloor('1.99', '2.48')).toBe('too-old');
  });

  it('should be ok when the version is exactly at the floor', () => {
    expect(compareToFloor('2.48.0', '2.48')).toBe('ok');
    expect(compareToFloor('2.48', '2.48')).toBe('ok');
  });

  it('should be ok when the version is newer', () => {
    expect(compareToFloor('2.53.0', '2.48')).toBe('ok');
    expect(compareToFloor('3.0', '2.48')).toBe('ok');
  });

  it('should compare numerically when components have different widths', () => {
    expect(compareToFloor('2.5', '2.48')).toBe('too-old');
    expect(compareToFloor('2.100', '2.48')).toBe('ok');
  });

  it('should be unread when the version has fewer components than the floor', () => {
    expect(compareToFloor('2', '2.48')).toBe('unread');
    expect(compareToFloor('3', '2.48')).toBe('unread');
    expect(compareToFloor('2.48', '2.48.1')).toBe('unread');
  });

  it('should be unread when either side is not a numeric dotted version', () => {
    expect(compareToFloor('2.x', '2.48')).toBe('unread');
    expect(compareToFloor('2.48', 'latest')).toBe('unread');
  });
});
