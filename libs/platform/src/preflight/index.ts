export * from './types';
export { BINARY_MANIFEST } from './manifest';
export { compareToFloor, parseVersion } from './version';
export { defaultVersionProbe } from './probe';
export { pathLocator } from './locator';
export {
  BinaryPreflightError,
  DEFAULT_PROBE_TIMEOUT_MS,
  PreflightEvent,
  runBinaryPreflight,
  type BinaryPreflightFailure,
} from './preflight';
