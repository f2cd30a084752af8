import { createHash } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { DatabaseService } from '../persistence/database.service';

/**
 * Mutual exclusion for multi-step operations (first-run setup, setup completion, restore): an
 * in-process queue per name, plus a Postgres advisory lock so replicas exclude each other too.
 */
@Injectable()
export class DistributedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly database: DatabaseService) {}

  async runExclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.withDatabaseLock(name, fn));
    const tail = run.catch(() => undefined);
    this.tails.set(name, tail);
    try {
      return await run;
    } finally {
      if (this.tails.get(name) === tail) {
        this.tails.delete(name);
      }
    }
  }

  /**
   * Runs `fn` only if nobody (in this process or on another replica) holds the lock right now;
   * answers `{ ran: false }` otherwise. For periodic jobs that one replica at a time should do.
   */
  async tryRunExclusive<T>(name: string, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    if (this.tails.has(name)) {
      return { ran: false };
    }
    const ds = this.database.dataSource;
    if (ds.options.type !== 'postgres') {
      return { ran: true, value: await this.runExclusive(name, fn) };
    }
    const runner = ds.createQueryRunner();
    await runner.connect();
    const key = lockKey(name);
    try {
      const rows = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [key])) as { locked: boolean }[];
      if (!rows[0]?.locked) {
        return { ran: false };
      }
      try {
        return { ran: true, value: await fn() };
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [key]);
      }
    } finally {
      await runner.release();
    }
  }

  private async withDatabaseLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const ds = this.database.dataSource;
    if (ds.options.type !== 'postgres') {
      return fn();
    }
    const runner = ds.createQueryRunner();
    await runner.connect();
    const key = lockKey(name);
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [key]);
      try {
        return await fn();
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [key]);
      }
    } finally {
      await runner.release();
    }
  }
}

/** A stable signed 64-bit key for a lock name. */
export function lockKey(name: string): string {
  return createHash('sha256').update(`synthorg:${name}`).digest().readBigInt64BE(0).toString();
}
