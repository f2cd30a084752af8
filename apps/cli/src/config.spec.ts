import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { configPath, DEFAULT_URL, normaliseUrl, readConfig, resolveProfile, writeConfig } from './config';

describe('profiles', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'synthorg-config-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should live under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configPath({ XDG_CONFIG_HOME: '/x/y' })).toBe('/x/y/synthorg/config.json');
    // A relative XDG_CONFIG_HOME is invalid by the specification and ignored.
    expect(configPath({ XDG_CONFIG_HOME: 'rel' })).toMatch(/\.config\/synthorg\/config\.json$/);
  });

  it('should write the file with mode 0600 in a 0700 directory, replacing a looser one', () => {
    const path = join(dir, 'synthorg', 'config.json');
    writeConfig(path, { profiles: { default: { url: 'http://a', token: 't' } } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'synthorg')).mode & 0o777).toBe(0o700);
    writeFileSync(path, '{"profiles":{}}', { mode: 0o644 });
    writeConfig(path, { current: 'p', profiles: {} });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readConfig(path)).toEqual({ current: 'p', profiles: {} });
  });

  it('should read a missing file as empty and refuse a broken one', () => {
    expect(readConfig(join(dir, 'none.json'))).toEqual({ profiles: {} });
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{');
    expect(() => readConfig(broken)).toThrow(/not valid JSON/);
    expect(readFileSync(broken, 'utf8')).toBe('{');
  });

  it('should let SYNTHORG_URL and SYNTHORG_TOKEN override the profile, and --profile the current one', () => {
    const config = {
      current: 'work',
      profiles: { work: { url: 'http://work:8000/', token: 'w' }, home: { url: 'http://home', token: 'h' } },
    };
    expect(resolveProfile(config, undefined, {})).toEqual({
      profileName: 'work',
      url: 'http://work:8000',
      token: 'w',
      tokenSource: 'profile',
    });
    expect(resolveProfile(config, 'home', {})).toMatchObject({ profileName: 'home', token: 'h' });
    expect(resolveProfile(config, undefined, { SYNTHORG_PROFILE: 'home' })).toMatchObject({ profileName: 'home' });
    expect(resolveProfile(config, 'home', { SYNTHORG_URL: 'https://other/', SYNTHORG_TOKEN: 'e' })).toEqual({
      profileName: 'home',
      url: 'https://other',
      token: 'e',
      tokenSource: 'env',
    });
    expect(resolveProfile({ profiles: {} }, undefined, {})).toEqual({
      profileName: 'default',
      url: DEFAULT_URL,
      token: null,
      tokenSource: 'none',
    });
    expect(() => resolveProfile(config, '../etc', {})).toThrow(/profile names/);
  });

  it('should accept http(s) URLs only, without credentials', () => {
    expect(normaliseUrl('http://h:1/base/')).toBe('http://h:1/base');
    expect(() => normaliseUrl('ftp://h')).toThrow(/http or https/);
    expect(() => normaliseUrl('http://u:p@h')).toThrow(/credentials/);
    expect(() => normaliseUrl('nonsense')).toThrow(/not a URL/);
  });
});
