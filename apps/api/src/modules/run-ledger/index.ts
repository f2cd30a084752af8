export { RunLedger } from './run-ledger';
export { RunLedgerModule } from './run-ledger.module';
export type { OutcomeCounts, RunOutcomeRow, RunSummaryRow } from './run-ledger.repository';
