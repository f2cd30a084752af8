import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BackupManifestError, encodeVector, normalise } from '@app/domain';

import { MemoryBackup } from './memory-backup';
import type { MemoryRepository } from './memory.repository';

const vector = Buffer.from(encodeVector(normalise([1, 2, 3]))).toString('base64');
const entry = {
  id: 'e1',
  agent_id: 'a1',
  category: 'semantic',
  level: 'persistent',
  project: null,
  task_id: null,
  content: 'Deploys go through the pipeline.',
  metadata: { source: 'tool' },
  embedder: 'p/m/3',
  archive_id: null,
  created_at: '2026-06-01T00:00:00.000Z',
  updated_at: null,
  expires_at: null,
  embedding: vector,
};
const fact = {
  id: 'f1',
  category: 'convention',
  content: 'Tags are cut from main.',
  department: null,
  author: 'ceo',
  embedder: 'p/m/3',
  created_at: '2026-06-01T00:00:00.000Z',
  embedding: vector,
};

describe(MemoryBackup.name, () => {
  let dir: string;
  let replaced: { entries: unknown[]; facts: unknown[] } | null;
  const repository = {
    replaceAll: (entries: unknown[], facts: unknown[]) => {
      replaced = { entries, facts };
      return Promise.resolve();
    },
  } as unknown as MemoryRepository;

  const write = (entries: string, facts: string) => {
    mkdirSync(join(dir, 'memory'), { recursive: true });
    writeFileSync(join(dir, 'memory', 'memory_entries.jsonl'), entries);
    writeFileSync(join(dir, 'memory', 'org_facts.jsonl'), facts);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'memory-backup-'));
    replaced = null;
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should read back every row with its vector and replace both tables with them', async () => {
    write(`${JSON.stringify(entry)}\n`, `${JSON.stringify(fact)}\n\n`);
    const backup = new MemoryBackup(repository);
    await expect(backup.check(dir)).resolves.toEqual({ entries: 1, facts: 1 });
    await expect(backup.restore(dir)).resolves.toEqual({ entries: 1, facts: 1 });
    const [row] = replaced?.entries as { id: string; agentId: string; createdAt: Date; embedding: Buffer }[];
    expect(row).toMatchObject({ id: 'e1', agentId: 'a1', createdAt: new Date(entry.created_at) });
    expect(row.embedding.toString('base64')).toBe(vector);
  });

  it.each([
    ['a missing file', null, /has no memory\/org_facts\.jsonl/],
    ['a line that is not JSON', '{"id":', /memory_entries\.jsonl is unusable at line 1/],
    ['an unknown category', JSON.stringify({ ...entry, category: 'dreams' }), /field "category" must be one of/],
    ['a vector that is not float32 bytes', JSON.stringify({ ...entry, embedding: 'AAA' }), /field "embedding"/],
    ['a time that is not one', JSON.stringify({ ...entry, created_at: 'yesterday' }), /field "created_at"/],
  ])('should refuse %s before anything changes', async (_name, line, message) => {
    if (line === null) {
      mkdirSync(join(dir, 'memory'), { recursive: true });
      writeFileSync(join(dir, 'memory', 'memory_entries.jsonl'), '');
    } else {
      write(`${line}\n`, '');
    }
    const backup = new MemoryBackup(repository);
    const refused = backup.check(dir);
    await expect(refused).rejects.toBeInstanceOf(BackupManifestError);
    await expect(backup.check(dir)).rejects.toThrow(message);
    expect(replaced).toBeNull();
  });
});
