import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { Inject, Injectable } from '@nestjs/common';
import { parse as parseYaml } from 'yaml';

import { BackupManifestError } from '@app/domain';
import { APP_CONFIG, type AppConfig } from '@app/platform';

import { BackupComponentUnavailableError } from './backup-component.errors';
import type { ComponentHandler } from './component-handler';

const DIR = 'config';
const FILE = 'synthorg.yaml';

/**
 * The `config` component: the YAML configuration file the service started from (company, server,
 * engine and settings tiers). It is read at startup, so a restored file takes effect at the next start.
 */
@Injectable()
export class ConfigComponent implements ComponentHandler {
  readonly component = 'config' as const;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Whether there is a configuration file to back up. */
  get present(): boolean {
    return this.config.configFile !== null && existsSync(this.config.configFile);
  }

  async backup(dir: string): Promise<void> {
    await mkdir(join(dir, DIR), { recursive: true });
    await copyFile(this.target(), join(dir, DIR, FILE));
  }

  async validateSource(dir: string): Promise<void> {
    const file = join(dir, DIR, FILE);
    if (!existsSync(file)) {
      throw new BackupManifestError(`The backup has no ${DIR}/${FILE}`);
    }
    try {
      const parsed: unknown = parseYaml(await readFile(file, 'utf8'));
      if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
        throw new Error('the top level must be a mapping');
      }
    } catch (error) {
      throw new BackupManifestError(
        `The backup's configuration file is not valid YAML: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    this.target();
  }

  /** Replaces the file by a rename, keeping the previous one until the new one is in place. */
  async restore(dir: string): Promise<void> {
    const target = this.target();
    const staged = `${target}.restoring`;
    await copyFile(join(dir, DIR, FILE), staged);
    try {
      await rename(staged, target);
    } catch (error) {
      await rm(staged, { force: true });
      throw error;
    }
  }

  private target(): string {
    if (!this.config.configFile) {
      throw new BackupComponentUnavailableError('The service runs without a YAML configuration file');
    }
    return this.config.configFile;
  }
}
