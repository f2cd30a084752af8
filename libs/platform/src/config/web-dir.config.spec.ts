import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { buildAppConfig } from './app-config';
import type { ConfigSources } from './config-sources';
import { installedWebDir } from './web-dir.config';

const SECRET = 'a-signing-secret-of-at-least-32-characters';
const REPOSITORY = resolve(__dirname, '../../../..');

const webDir = (env: Record<string, string> = {}, yaml: Record<string, unknown> = {}) =>
  buildAppConfig({
    env: { SYNTHORG_JWT_SECRET: SECRET, ...env },
    yaml,
    yamlPath: null,
    yamlError: null,
    cwd: '/srv/synthorg',
  } satisfies ConfigSources).server.webDir;

describe('the web console directory in the configuration', () => {
  it('should default to dist/web of the installation, wherever the process runs from', () => {
    expect(webDir()).toBe(join(REPOSITORY, 'dist', 'web'));
  });

  it('should read the variable first, then the YAML key, relative to the working directory', () => {
    expect(webDir({}, { server: { web_dir: 'public' } })).toBe('/srv/synthorg/public');
    expect(webDir({ SYNTHORG_WEB_DIR: '/opt/console' }, { server: { web_dir: 'public' } })).toBe('/opt/console');
  });

  it('should turn the console off when the variable or the YAML key is empty', () => {
    expect(webDir({ SYNTHORG_WEB_DIR: '' }, { server: { web_dir: 'public' } })).toBeNull();
    expect(webDir({ SYNTHORG_WEB_DIR: '  ' })).toBeNull();
    expect(webDir({}, { server: { web_dir: '' } })).toBeNull();
  });
});

describe(installedWebDir.name, () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'synthorg-install-'));
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('should find dist/web from the compiled files as from the sources', () => {
    writeFileSync(join(root, 'package.json'), '{}');
    const compiled = join(root, 'dist', 'libs', 'platform', 'src', 'config');
    const sources = join(root, 'libs', 'platform', 'src', 'config');
    mkdirSync(compiled, { recursive: true });
    mkdirSync(sources, { recursive: true });

    expect(installedWebDir(compiled)).toBe(join(root, 'dist', 'web'));
    expect(installedWebDir(sources)).toBe(join(root, 'dist', 'web'));
  });
});
