import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { ErrorCode } from '@app/domain';

import { checksumDirectory, extractArchive, packDirectory, readArchiveFile } from './backup-archive';

/** One ustar header + body, written by hand so an archive can hold what no honest packer writes. */
function tarEntry(name: string, type: '0' | '1' | '2' | '5', body = '', linkname = ''): Buffer {
  const header = Buffer.alloc(512);
  const put = (text: string, offset: number, length: number): void => {
    header.write(text.slice(0, length), offset, 'utf8');
  };
  const octal = (value: number, length: number): string => `${value.toString(8).padStart(length - 1, '0')}\0`;
  const data = Buffer.from(body);
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(data.length, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  put('        ', 148, 8);
  put(type, 156, 1);
  put(linkname, 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  const sum = header.reduce((total, byte) => total + byte, 0);
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  const padded = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  data.copy(padded);
  return Buffer.concat([header, padded]);
}

function archiveOf(...entries: Buffer[]): Buffer {
  return gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));
}

describe('backup archives', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-archive-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['a path climbing out with ..', tarEntry('../escaped.txt', '0', 'x'), '..'],
    ['an absolute path', tarEntry('/tmp/synthorg-absolute.txt', '0', 'x'), 'absolute'],
    ['a symbolic link', tarEntry('link', '2', '', '/etc/passwd'), 'SymbolicLink'],
    ['a hard link', tarEntry('hard', '1', '', 'manifest.json'), 'Link'],
  ])('should refuse an archive with %s before writing anything (2052)', async (_what, bad, reason) => {
    const archive = join(dir, 'evil.tar.gz');
    writeFileSync(archive, archiveOf(tarEntry('manifest.json', '0', '{}'), bad));
    const into = join(dir, 'out');
    mkdirSync(into);

    const failure = extractArchive(archive, into);

    await expect(failure).rejects.toMatchObject({ code: ErrorCode.BackupArchiveUnsafe });
    await expect(extractArchive(archive, into)).rejects.toThrow(reason);
    expect(readdirSync(into)).toEqual([]);
    expect(existsSync(join(dir, 'escaped.txt'))).toBe(false);
  });

  it('should pack, read back and extract a backup with the same checksum', async () => {
    const source = join(dir, 'backup');
    mkdirSync(join(source, 'persistence'), { recursive: true });
    writeFileSync(join(source, 'persistence', 'synthorg.db'), 'rows');
    writeFileSync(join(source, 'manifest.json'), '{"id":1}');
    const archive = join(dir, 'backup.tar.gz');

    await packDirectory(source, archive);
    const into = join(dir, 'out');
    mkdirSync(into);
    await extractArchive(archive, into);

    expect((await readArchiveFile(archive, 'manifest.json'))?.toString()).toBe('{"id":1}');
    expect(await checksumDirectory(into)).toEqual(await checksumDirectory(source));
  });

  it('should leave the manifest and symbolic links out of the checksum, and see one changed byte', async () => {
    const source = join(dir, 'backup');
    mkdirSync(source);
    writeFileSync(join(source, 'data'), 'abc');
    const first = await checksumDirectory(source);
    writeFileSync(join(source, 'manifest.json'), 'anything');
    symlinkSync('/etc/hostname', join(source, 'link'));
    expect(await checksumDirectory(source)).toEqual(first);
    expect(first.sizeBytes).toBe(3);
    writeFileSync(join(source, 'data'), 'abd');
    expect((await checksumDirectory(source)).checksum).not.toBe(first.checksum);
  });
});
