import { mkdir, readdir, readFile, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type BackupManifest,
  BackupManifestError,
  backupEntryName,
  MANIFEST_FILE,
  parseBackupEntryName,
  parseBackupManifest,
} from '@app/domain';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { SettingsSnapshot } from '../settings';

import { extractArchive, packDirectory, readArchiveFile } from './backup-archive';

/** A backup on disk: its manifest and where it lives (a directory, or a `.tar.gz` beside it). */
export interface StoredBackup {
  manifest: BackupManifest;
  compressed: boolean;
  location: string;
}

const ARCHIVE_SUFFIX = '.tar.gz';

/**
 * The backup directory (`backup.path`): `<id>_<trigger>/` with `manifest.json` inside, or
 * `<id>_<trigger>.tar.gz` with the manifest at its root. Backups are built in a hidden staging
 * directory and renamed into place when complete, so a listing never shows half a backup.
 */
@Injectable()
export class BackupStore {
  private readonly log: Logger;
  /** Manifests of archives, keyed by path, size and modification time: listing need not unpack. */
  private readonly archived = new Map<string, { stamp: string; manifest: BackupManifest }>();

  constructor(
    private readonly settings: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('backup');
  }

  get root(): string {
    return resolve(this.settings.value<string>('backup', 'path'));
  }

  /** Every readable backup, newest first; an entry whose manifest cannot be read is logged and left out. */
  async all(): Promise<StoredBackup[]> {
    const names = await readdir(this.root).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') {
        return [] as string[];
      }
      throw error;
    });
    const found: StoredBackup[] = [];
    for (const name of names) {
      const parsed = parseBackupEntryName(name);
      if (!parsed) {
        continue;
      }
      try {
        found.push(await this.load(name, parsed.id, parsed.compressed));
      } catch (error) {
        this.log.warn({ entry: name, err: error }, 'backup.manifest.unreadable');
      }
    }
    return found.sort((a, b) => Date.parse(b.manifest.timestamp) - Date.parse(a.manifest.timestamp));
  }

  /** The backup with this id; null when none. @throws BackupManifestError when its manifest is unreadable. */
  async find(id: string): Promise<StoredBackup | null> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const name = names.find((n) => parseBackupEntryName(n)?.id === id);
    return name ? this.load(name, id, name.endsWith(ARCHIVE_SUFFIX)) : null;
  }

  /** A fresh, empty staging directory for a backup being built. */
  async stage(id: string): Promise<string> {
    const dir = join(this.root, `.staging-${id}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** Writes the manifest into the staged backup and moves it into place, packed when `compress`. */
  async commit(staging: string, manifest: BackupManifest, compress: boolean): Promise<StoredBackup> {
    await writeFile(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    const name = backupEntryName(manifest.backup_id, manifest.trigger);
    if (compress) {
      const archive = join(this.root, `${name}${ARCHIVE_SUFFIX}`);
      await packDirectory(staging, `${archive}.partial`);
      await rename(`${archive}.partial`, archive);
      await rm(staging, { recursive: true, force: true });
      return { manifest, compressed: true, location: archive };
    }
    const dir = join(this.root, name);
    await rename(staging, dir);
    return { manifest, compressed: false, location: dir };
  }

  async discard(staging: string): Promise<void> {
    await rm(staging, { recursive: true, force: true });
  }

  async remove(backup: StoredBackup): Promise<void> {
    this.archived.delete(backup.location);
    await rm(backup.location, { recursive: true, force: true });
  }

  /** Bytes free for backups at the target (the directory is created when missing). */
  async freeBytes(): Promise<number> {
    await mkdir(this.root, { recursive: true });
    const fs = await statfs(this.root);
    return fs.bavail * fs.bsize;
  }

  /**
   * The backup's files as a directory: the backup's own, or an archive extracted (safely) into
   * `_restore_<id>`; `cleanup` removes what was extracted.
   */
  async unpack(backup: StoredBackup): Promise<{ dir: string; cleanup: () => Promise<void> }> {
    if (!backup.compressed) {
      return { dir: backup.location, cleanup: () => Promise.resolve() };
    }
    const dir = join(this.root, `_restore_${backup.manifest.backup_id}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const cleanup = () => rm(dir, { recursive: true, force: true });
    try {
      await extractArchive(backup.location, dir);
    } catch (error) {
      await cleanup();
      throw error;
    }
    return { dir, cleanup };
  }

  private async load(name: string, id: string, compressed: boolean): Promise<StoredBackup> {
    const location = join(this.root, name);
    if (!compressed) {
      const text = await readFile(join(location, MANIFEST_FILE), 'utf8').catch(() => null);
      return { manifest: parseManifestText(text, id), compressed, location };
    }
    const info = await stat(location);
    const stamp = `${info.size}:${info.mtimeMs}`;
    const cached = this.archived.get(location);
    if (cached?.stamp === stamp) {
      return { manifest: cached.manifest, compressed, location };
    }
    const bytes = await readArchiveFile(location, MANIFEST_FILE).catch((error: unknown) => {
      throw new BackupManifestError(`Backup ${id}: the archive cannot be read`, error);
    });
    const manifest = parseManifestText(bytes?.toString('utf8') ?? null, id);
    this.archived.set(location, { stamp, manifest });
    return { manifest, compressed, location };
  }
}

function parseManifestText(text: string | null, id: string): BackupManifest {
  if (text === null) {
    throw new BackupManifestError(`Backup ${id}: ${MANIFEST_FILE} is missing`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new BackupManifestError(`Backup ${id}: ${MANIFEST_FILE} is not valid JSON`);
  }
  return parseBackupManifest(raw, id);
}
