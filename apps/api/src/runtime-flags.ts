/**
 * The production runtime flag. V8 sizes the young generation from the machine's memory, and with
 * that much to scavenge at once a request's p99 is two to three times higher (docs/benchmarks.md,
 * "Runtime flag"). V8 reads the size once, when the heap is made, so the service cannot set it for
 * itself: `npm start`, `npm run start:prod` and the image pass it, and startup warns without it.
 */
export const SEMI_SPACE_FLAG = '--max-semi-space-size=16';

/** Whether the process runs without any `--max-semi-space-size`, on its command line or in NODE_OPTIONS. */
export function semiSpaceFlagMissing(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
  return !given.some((arg) => /^--max[-_]semi[-_]space[-_]size(=|$)/.test(arg));
}
