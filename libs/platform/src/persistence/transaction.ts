import type { EntityManager } from 'typeorm';

const MANAGER = Symbol('transaction.manager');

/**
 * An open database transaction as services see it: an opaque handle they pass on to repositories and
 * facades, so a service joins several writes into one transaction without naming an ORM type.
 */
export interface Transaction {
  readonly [MANAGER]: EntityManager;
}

/** Wraps the manager of a running transaction (UnitOfWork only). */
export function transactionOf(manager: EntityManager): Transaction {
  return { [MANAGER]: manager };
}

/** The manager a transaction carries (repositories only, through DatabaseService.manager). */
export function managerOf(tx: Transaction): EntityManager {
  return tx[MANAGER];
}
