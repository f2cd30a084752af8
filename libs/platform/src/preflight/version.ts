// A dotted version that is not glued to a preceding word or number ("x86_64" or "1.2.3.4.5" fragments),
// optionally prefixed with "v" as some tools print it.
const DOTTED_VERSION = /(?:^|[^\w.])v?(\d+(?:\.\d+)+)/;
// Fallback for tools that print a bare major ("git version 2"): only trusted right after the word "version",
// because a lone integer elsewhere in the output is more likely an exit code or a year than a version.
const BARE_VERSION = /\bversion\s+v?(\d+)(?![\w.])/i;
const NUMERIC_VERSION = /^\d+(?:\.\d+)*$/;

/** The first dotted version in a `--version` output, or a bare major after "version"; null when there is none. */
export function parseVersion(output: string): string | null {
  const dotted = DOTTED_VERSION.exec(output);
  if (dotted?.[1] !== undefined) {
    return dotted[1];
  }
  const bare = BARE_VERSION.exec(output);
  return bare?.[1] ?? null;
}

/**
 * Compares numerically, component by component, over the floor's components.
 * A version with fewer components than the floor is 'unread', not 'too-old': "2" against "2.48" may well be
 * 2.53, and refusing to start on a guess would be worse than letting it through with a warning.
 * semver.coerce is deliberately not used: it would pad "2" to "2.0.0" and call it too old.
 */
export function compareToFloor(version: string, floor: string): 'ok' | 'too-old' | 'unread' {
  if (!NUMERIC_VERSION.test(version) || !NUMERIC_VERSION.test(floor)) {
    return 'unread';
  }
  const found = version.split('.').map(Number);
  const required = floor.split('.').map(Number);
  if (found.length < required.length) {
    return 'unread';
  }
  for (let i = 0; i < required.length; i++) {
    const a = found[i] ?? 0;
    const b = required[i] ?? 0;
    if (a !== b) {
      return a > b ? 'ok' : 'too-old';
    }
  }
  return 'ok';
}
