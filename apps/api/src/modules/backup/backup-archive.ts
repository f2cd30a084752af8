import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

import { create, extract, list, type ReadEntry } from 'tar';

import { MANIFEST_FILE, UnsafeArchiveEntryError, unsafeArchiveEntry } from '@app/domain';

/**
 * The `sha256:` checksum of a backup directory: over its regular files (not links, not the root
 * `manifest.json`) in sorted order of their POSIX relative paths, hashing each path, then its bytes.
 */
export async function checksumDirectory(dir: string): Promise<{ checksum: string; sizeBytes: number }> {
  const files = (await regularFiles(dir)).filter((file) => file !== MANIFEST_FILE).sort();
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for (const file of files) {
    hash.update(file);
    for await (const chunk of createReadStream(join(dir, ...file.split('/')))) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      sizeBytes += bytes.length;
    }
  }
  return { checksum: `sha256:${hash.digest('hex')}`, sizeBytes };
}

/** POSIX relative paths of the regular files under `dir` (symbolic links are skipped, never followed). */
async function regularFiles(dir: string, root = dir): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    const stat = await lstat(path);
    if (stat.isDirectory()) {
      found.push(...(await regularFiles(path, root)));
    } else if (stat.isFile()) {
      found.push(relative(root, path).split(sep).join('/'));
    }
  }
  return found;
}

/** Packs the contents of `dir` (manifest at the archive root) into a gzip-compressed tar at `archive`. */
export async function packDirectory(dir: string, archive: string): Promise<void> {
  const entries = (await readdir(dir)).sort();
  await create({ gzip: true, file: archive, cwd: dir, portable: true, follow: false }, entries);
}

/** Reads one root-level file of an archive into memory; null when the archive has no such file. */
export async function readArchiveFile(archive: string, name: string): Promise<Buffer | null> {
  let found: Buffer | null = null;
  await list({
    file: archive,
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      if (entry.path !== name || entry.type !== 'File') {
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        found = Buffer.concat(chunks);
      });
    },
  });
  return found;
}

/**
 * Extracts an archive into `into`, refusing it whole (before anything is written) when any entry has an
 * absolute path, climbs out with `..`, or is a link or special file.
 * @throws UnsafeArchiveEntryError naming the first unsafe entry.
 */
export async function extractArchive(archive: string, into: string): Promise<void> {
  const unsafe: UnsafeArchiveEntryError[] = [];
  await list({
    file: archive,
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const reason = unsafeArchiveEntry(entry.path, entry.type);
      if (reason) {
        unsafe.push(new UnsafeArchiveEntryError(entry.path, reason));
      }
      entry.resume();
    },
  });
  if (unsafe[0]) {
    throw unsafe[0];
  }
  await extract({
    file: archive,
    cwd: into,
    strict: true,
    preservePaths: false,
    // A second line of defence: the same rule again while writing.
    filter: (path, entry) => 'type' in entry && unsafeArchiveEntry(path, entry.type) === null,
  });
}
