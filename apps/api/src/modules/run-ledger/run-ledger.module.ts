import { Module } from '@nestjs/common';

import { RunLedger } from './run-ledger';
import { RunLedgerRepository } from './run-ledger.repository';

/**
 * The engine's run ledger as a module of its own, depending on nothing but the platform: the
 * modules the engine itself depends on (agents, company) can read run records without a cycle.
 */
@Module({
  providers: [RunLedger, RunLedgerRepository],
  exports: [RunLedger],
})
export class RunLedgerModule {}
