import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

import { Injectable } from '@nestjs/common';

/**
 * This replica's identity as the owner of the work it holds: the runs it claims (`tasks.run_owner`),
 * the budget reservations of their model calls (`budget_reservations.owner`) and its liveness lock.
 * One value for all of them, so that the recovery that finds a replica dead through its runs settles
 * that replica's reservations in the same step. Host, pid and a random suffix: a restarted process
 * (or a second app in one process, as tests start) is another owner.
 */
@Injectable()
export class ReplicaIdentity {
  readonly owner = `${hostname().slice(0, 40)}-${process.pid}-${randomBytes(4).toString('hex')}`;
}
