import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';

import { Injectable } from '@nestjs/common';

import { BackupManifestError, MEMORY_CATEGORIES, MEMORY_LEVELS, ORG_FACT_CATEGORIES } from '@app/domain';
import type { MemoryEntryEntity, OrgFactEntity } from '@app/persistence';

import { MemoryRepository } from './memory.repository';

/** The component's directory inside a backup, and its two files (JSON lines, one row a line). */
const DIR = 'memory';
const ENTRIES_FILE = 'memory_entries.jsonl';
const FACTS_FILE = 'org_facts.jsonl';

type Json = Record<string, unknown>;

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

function entryLine(row: MemoryEntryEntity): string {
  return JSON.stringify({
    id: row.id,
    agent_id: row.agentId,
    category: row.category,
    level: row.level,
    project: row.project,
    task_id: row.taskId,
    content: row.content,
    metadata: row.metadata,
    embedder: row.embedder,
    archive_id: row.archiveId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    expires_at: iso(row.expiresAt),
    embedding: Buffer.from(row.embedding).toString('base64'),
  });
}

function factLine(row: OrgFactEntity): string {
  return JSON.stringify({
    id: row.id,
    category: row.category,
    content: row.content,
    department: row.department,
    author: row.author,
    embedder: row.embedder,
    created_at: iso(row.createdAt),
    embedding: Buffer.from(row.embedding).toString('base64'),
  });
}

/** Reads one line's row; throws a message naming the first field that is wrong. */
class LineReader {
  constructor(private readonly value: Json) {}

  text(field: string, max: number, nullable = false): string | null {
    const v = this.value[field];
    if (v === null && nullable) {
      return null;
    }
    if (typeof v !== 'string' || v.length > max || (!nullable && v === '')) {
      throw new Error(`field "${field}" must be ${nullable ? 'null or ' : ''}a string of at most ${max} characters`);
    }
    return v;
  }

  required(field: string, max: number): string {
    return this.text(field, max) as string;
  }

  oneOf(field: string, values: readonly string[]): string {
    const v = this.required(field, 32);
    if (!values.includes(v)) {
      throw new Error(`field "${field}" must be one of ${values.join(', ')}`);
    }
    return v;
  }

  date(field: string, nullable = false): Date | null {
    const v = this.text(field, 40, nullable);
    if (v === null) {
      return null;
    }
    const date = new Date(v);
    if (Number.isNaN(date.getTime())) {
      throw new Error(`field "${field}" must be an ISO 8601 time`);
    }
    return date;
  }

  vector(field: string): Buffer {
    const v = this.required(field, 1_000_000);
    const bytes = Buffer.from(v, 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0) {
      throw new Error(`field "${field}" must be base64 float32 bytes`);
    }
    return bytes;
  }

  object(field: string): Json {
    const v = this.value[field];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw new Error(`field "${field}" must be an object`);
    }
    return v as Json;
  }
}

function parseEntry(value: Json): MemoryEntryEntity {
  const r = new LineReader(value);
  return {
    id: r.required('id', 36),
    agentId: r.required('agent_id', 36),
    category: r.oneOf('category', MEMORY_CATEGORIES),
    level: r.oneOf('level', MEMORY_LEVELS),
    project: r.text('project', 128, true),
    taskId: r.text('task_id', 64, true),
    content: r.required('content', 100_000),
    metadata: r.object('metadata'),
    embedder: r.required('embedder', 320),
    archiveId: r.text('archive_id', 64, true),
    createdAt: r.date('created_at') as Date,
    updatedAt: r.date('updated_at', true),
    expiresAt: r.date('expires_at', true),
    embedding: r.vector('embedding'),
  };
}

function parseFact(value: Json): OrgFactEntity {
  const r = new LineReader(value);
  return {
    id: r.required('id', 36),
    category: r.oneOf('category', ORG_FACT_CATEGORIES),
    content: r.required('content', 100_000),
    department: r.text('department', 128, true),
    author: r.required('author', 200),
    embedder: r.required('embedder', 320),
    createdAt: r.date('created_at') as Date,
    embedding: r.vector('embedding'),
  };
}

/** Every row of a JSON-lines file, parsed; a bad line is a BackupManifestError naming file and line. */
async function readLines<T>(file: string, parse: (value: Json) => T, visit: (row: T) => void): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (line.trim() === '') {
      continue;
    }
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new Error('not a JSON object');
      }
      visit(parse(value as Json));
    } catch (error) {
      throw new BackupManifestError(
        `The backup's ${DIR}/${file.split(/[\\/]/).pop()} is unusable at line ${number}: ${(error as Error).message}`,
      );
    }
  }
}

/**
 * Agent memory as its own backup component (`memory`): the entries and the organisation facts, with
 * their vectors, as JSON lines, independent of the database's dialect. A restore replaces both tables
 * in one transaction (a failure changes nothing); every replica then rebuilds its index (the
 * memory service hears `backup.restored`).
 */
@Injectable()
export class MemoryBackup {
  constructor(private readonly repository: MemoryRepository) {}

  async write(dir: string): Promise<void> {
    await mkdir(join(dir, DIR), { recursive: true });
    await this.writeFile(join(dir, DIR, ENTRIES_FILE), (emit) =>
      this.repository.forEachEntry((rows) => emit(rows.map(entryLine))),
    );
    await this.writeFile(join(dir, DIR, FACTS_FILE), async (emit) =>
      emit((await this.repository.allFacts()).map(factLine)),
    );
  }

  private async writeFile(
    file: string,
    produce: (emit: (lines: string[]) => Promise<void>) => Promise<void>,
  ): Promise<void> {
    const out = createWriteStream(file, 'utf8');
    const failed: { error: Error | null } = { error: null };
    out.on('error', (error) => (failed.error = error));
    await produce(async (lines) => {
      if (failed.error === null && lines.length > 0 && !out.write(`${lines.join('\n')}\n`)) {
        await new Promise<void>((resolve) => {
          out.once('drain', resolve);
          out.once('error', () => resolve());
        });
      }
    });
    out.end();
    await finished(out).catch((error: Error) => (failed.error ??= error));
    if (failed.error) {
      throw failed.error;
    }
  }

  /** Checks both files are there and every line is a row of its table. */
  async check(dir: string): Promise<{ entries: number; facts: number }> {
    const counts = { entries: 0, facts: 0 };
    for (const name of [ENTRIES_FILE, FACTS_FILE]) {
      if (!existsSync(join(dir, DIR, name))) {
        throw new BackupManifestError(`The backup has no ${DIR}/${name}`);
      }
    }
    await readLines(join(dir, DIR, ENTRIES_FILE), parseEntry, () => (counts.entries += 1));
    await readLines(join(dir, DIR, FACTS_FILE), parseFact, () => (counts.facts += 1));
    return counts;
  }

  /** Replaces every entry and fact by the backup's, in one transaction. */
  async restore(dir: string): Promise<{ entries: number; facts: number }> {
    const entries: MemoryEntryEntity[] = [];
    const facts: OrgFactEntity[] = [];
    await readLines(join(dir, DIR, ENTRIES_FILE), parseEntry, (row) => entries.push(row));
    await readLines(join(dir, DIR, FACTS_FILE), parseFact, (row) => facts.push(row));
    await this.repository.replaceAll(entries, facts);
    return { entries: entries.length, facts: facts.length };
  }
}
