export { RunLedger } from './run-ledger';
export { RunLedgerModule } from './run-ledger.module';
export type { RunOutcomeRow, RunSummaryRow } from './run-ledger.repository';
