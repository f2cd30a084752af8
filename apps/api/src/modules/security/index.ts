// The security module's public face: other modules import only from here.
export { AutonomyControl, type AutonomyState } from './autonomy-control';
export { SecurityModule } from './security.module';
export { RunOutcomeWatcher } from './run-outcome.watcher';
