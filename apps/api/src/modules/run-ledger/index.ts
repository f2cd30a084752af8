export { RunLedger } from './run-ledger';
export { RunLedgerModule } from './run-ledger.module';
