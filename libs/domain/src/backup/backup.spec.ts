import { ErrorCode } from '../errors/error-codes';

import { type BackupTrigger, parseBackupEntryName, parseBackupManifest } from './backup-manifest';
import { hasRoomForBackup, type RetainedBackup, selectForPruning, unsafeArchiveEntry } from './backup-rules';

const ID = '0123456789ab';
const CHECKSUM = `sha256:${'a'.repeat(64)}`;

function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    synthorg_version: '0.6.1',
    timestamp: '2026-01-01T00:00:00.000Z',
    trigger: 'manual',
    components: ['persistence', 'config'],
    size_bytes: 10,
    checksum: CHECKSUM,
    backup_id: ID,
    ...overrides,
  };
}

describe('parseBackupManifest', () => {
  it('should accept a well-formed manifest', () => {
    expect(parseBackupManifest(manifest(), ID)).toEqual(manifest());
  });

  it.each([
    ['not an object', [], 'not a JSON object'],
    ['another id', manifest({ backup_id: 'ffffffffffff' }), 'backup_id'],
    ['a bad trigger', manifest({ trigger: 'nightly' }), 'trigger'],
    ['no components', manifest({ components: [] }), 'components'],
    ['an unknown component', manifest({ components: ['persistence', 'logs'] }), 'components'],
    ['a repeated component', manifest({ components: ['config', 'config'] }), 'components'],
    ['a negative size', manifest({ size_bytes: -1 }), 'size_bytes'],
    ['a bad checksum', manifest({ checksum: 'md5:abc' }), 'checksum'],
    ['a bad time', manifest({ timestamp: 'yesterday' }), 'timestamp'],
    ['no version', manifest({ synthorg_version: undefined }), 'synthorg_version'],
  ])('should refuse a manifest with %s (8013, the field named)', (_what, raw, field) => {
    expect(() => parseBackupManifest(raw, ID)).toThrow(
      expect.objectContaining({ code: ErrorCode.BackupManifestError }),
    );
    expect(() => parseBackupManifest(raw, ID)).toThrow(field);
  });
});

describe('parseBackupEntryName', () => {
  it('should read directories and archives of the layout', () => {
    expect(parseBackupEntryName(`${ID}_manual`)).toEqual({ id: ID, trigger: 'manual', compressed: false });
    expect(parseBackupEntryName(`${ID}_pre_migration.tar.gz`)).toEqual({
      id: ID,
      trigger: 'pre_migration',
      compressed: true,
    });
  });

  it.each(['_restore_0123456789ab', `${ID}`, `${ID}_nightly`, 'ABCDEF012345_manual', `${ID}_manual.zip`])(
    'should ignore %s',
    (name) => {
      expect(parseBackupEntryName(name)).toBeNull();
    },
  );
});

describe('unsafeArchiveEntry', () => {
  it('should allow relative files and directories', () => {
    expect(unsafeArchiveEntry('manifest.json', 'File')).toBeNull();
    expect(unsafeArchiveEntry('persistence/', 'Directory')).toBeNull();
  });

  it.each([
    ['/etc/passwd', 'File', 'absolute'],
    ['C:/Windows/x', 'File', 'absolute'],
    ['../outside', 'File', '..'],
    ['persistence/../../x', 'File', '..'],
    ['a\\..\\b', 'File', '..'],
    ['link', 'SymbolicLink', 'SymbolicLink'],
    ['hard', 'Link', 'Link'],
    ['dev', 'CharacterDevice', 'CharacterDevice'],
  ])('should refuse %s (%s)', (path, type, reason) => {
    expect(unsafeArchiveEntry(path, type)).toContain(reason);
  });
});

describe('selectForPruning', () => {
  const now = new Date('2026-02-01T00:00:00.000Z');
  const at = (days: number): string => new Date(now.getTime() - days * 86_400_000).toISOString();
  const backup = (
    id: string,
    daysAgo: number,
    trigger: BackupTrigger = 'scheduled',
    sizeBytes = 10,
  ): RetainedBackup => ({
    id,
    timestamp: at(daysAgo),
    trigger,
    sizeBytes,
  });

  it('should remove what is older than the age limit, oldest last in the answer', () => {
    const list = [backup('a', 1), backup('b', 40), backup('c', 50)];
    expect(selectForPruning(list, { maxCount: 10, maxAgeDays: 30, maxTotalBytes: null }, now)).toEqual(['b', 'c']);
  });

  it('should remove the oldest beyond the count', () => {
    const list = [backup('a', 1), backup('b', 2), backup('c', 3), backup('d', 4)];
    expect(selectForPruning(list, { maxCount: 2, maxAgeDays: 30, maxTotalBytes: null }, now)).toEqual(['c', 'd']);
  });

  it('should never remove the newest nor a pre_migration backup', () => {
    const list = [backup('new', 100), backup('safety', 200, 'pre_migration'), backup('old', 300)];
    expect(selectForPruning(list, { maxCount: 1, maxAgeDays: 1, maxTotalBytes: 0 }, now)).toEqual(['old']);
  });

  it('should remove the oldest while the total exceeds the size cap', () => {
    const list = [backup('a', 1, 'manual', 50), backup('b', 2, 'manual', 50), backup('c', 3, 'manual', 50)];
    expect(selectForPruning(list, { maxCount: 10, maxAgeDays: 30, maxTotalBytes: 100 }, now)).toEqual(['c']);
  });
});

describe('hasRoomForBackup', () => {
  it('should want twice the last backup free', () => {
    expect(hasRoomForBackup(200, 100)).toBe(true);
    expect(hasRoomForBackup(199, 100)).toBe(false);
    expect(hasRoomForBackup(0, null)).toBe(true);
  });
});
