import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type BackupComponent, type BackupManifest, ErrorCode } from '@app/domain';
import { makeServiceUnderTest } from '@app/testing';

import { AuditTrail } from '../audit';

import { checksumDirectory } from './backup-archive';
import { BackupService } from './backup.service';
import { BackupStore, type StoredBackup } from './backup.store';
import type { ComponentHandler } from './component-handler';
import { RestoreRelay } from './restore.relay';
import { RestoreUseCase } from './restore.use-case';

const ID = '0123456789ab';

function handler(component: BackupComponent, calls: string[]): jest.Mocked<ComponentHandler> {
  return {
    component,
    backup: jest.fn(),
    validateSource: jest.fn((dir: string) => {
      calls.push(`validate ${component} ${dir}`);
      return Promise.resolve();
    }),
    restore: jest.fn((dir: string) => {
      calls.push(`restore ${component} ${dir}`);
      return Promise.resolve();
    }),
  };
}

describe(RestoreUseCase.name, () => {
  let dir: string;
  let backupDir: string;
  let manifest: BackupManifest;
  let calls: string[];
  let persistence: jest.Mocked<ComponentHandler>;
  let config: jest.Mocked<ComponentHandler>;

  function arrange() {
    const under = makeServiceUnderTest(RestoreUseCase);
    under.mock(AuditTrail).record.mockResolvedValue(null);
    const stored: StoredBackup = { manifest, compressed: false, location: backupDir };
    under.mock(BackupStore).find.mockResolvedValue(stored);
    under.mock(BackupStore).unpack.mockResolvedValue({
      dir: backupDir,
      cleanup: () => {
        calls.push('cleanup');
        return Promise.resolve();
      },
    });
    under.mock(RestoreRelay).restored.mockImplementation((_id, components) => {
      calls.push(`relay ${components.join(',')}`);
      return Promise.resolve(components.includes('config'));
    });
    const backups = under.mock(BackupService);
    backups.exclusive.mockImplementation((fn) => fn());
    backups.handlerFor.mockImplementation((c) => (c === 'persistence' ? persistence : c === 'config' ? config : null));
    backups.createUnlocked.mockImplementation((trigger) => {
      calls.push(`safety ${trigger}`);
      return Promise.resolve({
        manifest: { ...manifest, backup_id: 'fedcba987654', trigger },
        compressed: false,
        location: '/safety',
      });
    });
    return under;
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-restore-'));
    backupDir = join(dir, `${ID}_manual`);
    mkdirSync(join(backupDir, 'persistence'), { recursive: true });
    writeFileSync(join(backupDir, 'persistence', 'synthorg.db'), 'rows');
    const { checksum, sizeBytes } = await checksumDirectory(backupDir);
    manifest = {
      synthorg_version: '0.6.1',
      timestamp: '2026-01-01T00:00:00.000Z',
      trigger: 'manual',
      components: ['persistence', 'config'],
      size_bytes: sizeBytes,
      checksum,
      backup_id: ID,
    };
    calls = [];
    persistence = handler('persistence', calls);
    config = handler('config', calls);
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('should run the steps in order and answer the safety backup id when everything restores', async () => {
    const { sut, mock } = arrange();

    const outcome = await sut.execute({ backupId: ID, components: null, confirm: true, actor: 'system' });

    expect(mock(AuditTrail).record).toHaveBeenCalledWith({
      actor: 'system',
      action: 'backup.restored',
      target: `backup:${ID}`,
      outcome: 'success',
      details: { components: ['persistence', 'config'], safety_backup_id: 'fedcba987654', restart_required: true },
    });

    expect(outcome).toMatchObject({
      restoredComponents: ['persistence', 'config'],
      safetyBackupId: 'fedcba987654',
      restartRequired: true,
    });
    expect(calls).toEqual([
      `validate persistence ${backupDir}`,
      `validate config ${backupDir}`,
      'safety pre_migration',
      `restore persistence ${backupDir}`,
      `restore config ${backupDir}`,
      'relay persistence,config',
      'cleanup',
    ]);
  });

  it('should refuse without confirm (2050) before taking the lock', async () => {
    const { sut, mock } = arrange();

    await expect(sut.execute({ backupId: ID, components: null, confirm: false })).rejects.toMatchObject({
      code: ErrorCode.BackupRestoreNotConfirmed,
    });
    expect(mock(BackupService).exclusive).not.toHaveBeenCalled();
  });

  it('should refuse a changed byte (8013, naming the checksum) before validating or backing up anything', async () => {
    writeFileSync(join(backupDir, 'persistence', 'synthorg.db'), 'rowz');
    const { sut } = arrange();

    const failure = sut.execute({ backupId: ID, components: null, confirm: true });

    await expect(failure).rejects.toMatchObject({ code: ErrorCode.BackupManifestError });
    await expect(sut.execute({ backupId: ID, components: null, confirm: true })).rejects.toThrow(/checksum/);
    expect(calls.filter((c) => c !== 'cleanup')).toEqual([]);
  });

  it('should take no safety backup and restore nothing when a source is unusable', async () => {
    config.validateSource.mockRejectedValue(new Error('not YAML'));
    const { sut } = arrange();

    await expect(sut.execute({ backupId: ID, components: null, confirm: true })).rejects.toThrow('not YAML');
    expect(calls).toEqual([`validate persistence ${backupDir}`, 'cleanup']);
  });

  it('should put earlier components back from the safety backup when a later one fails (8012)', async () => {
    config.restore.mockRejectedValue(new Error('disk full'));
    const { sut, mock } = arrange();

    await expect(sut.execute({ backupId: ID, components: null, confirm: true, actor: 'ceo' })).rejects.toMatchObject({
      code: ErrorCode.BackupRestoreFailed,
    });
    expect(mock(AuditTrail).record).toHaveBeenCalledWith(
      expect.objectContaining({ actor: 'ceo', action: 'backup.restored', outcome: 'failure' }),
    );
    expect(calls.slice(-3)).toEqual([`restore persistence ${backupDir}`, 'restore persistence /safety', 'cleanup']);
  });

  it('should refuse a component the backup does not hold (2051) and an unknown or malformed id (3015)', async () => {
    const { sut, mock } = arrange();

    await expect(sut.execute({ backupId: ID, components: ['memory'], confirm: true })).rejects.toMatchObject({
      code: ErrorCode.BackupComponentNotInBackup,
    });
    await expect(sut.execute({ backupId: '../etc', components: null, confirm: true })).rejects.toMatchObject({
      code: ErrorCode.BackupNotFound,
    });
    mock(BackupStore).find.mockResolvedValue(null);
    await expect(sut.execute({ backupId: 'ffffffffffff', components: null, confirm: true })).rejects.toMatchObject({
      code: ErrorCode.BackupNotFound,
    });
  });
});
