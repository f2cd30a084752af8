export { RunLedger } from './run-ledger';
export { RunLedgerModule } from './run-ledger.module';
export type { RunOutcomeRow } from './run-ledger.repository';
