export { RunLedger } from './run-ledger';
export { RunLedgerModule } from './run-ledger.module';
export type { FeedScope, RunOutcomeRow, RunsFeedOrder, RunSummaryRow } from './run-ledger.repository';
