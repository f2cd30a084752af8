import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * This process's identity as the owner of the work it holds: the runs it claims (`tasks.run_owner`)
 * and the budget reservations of their model calls (`budget_reservations.owner`). One value for both,
 * so that the recovery that finds a replica dead through its runs settles that replica's reservations
 * in the same step. Host, pid and a random suffix: a restarted process is another owner.
 */
export const PROCESS_OWNER = `${hostname().slice(0, 40)}-${process.pid}-${randomBytes(4).toString('hex')}`;
