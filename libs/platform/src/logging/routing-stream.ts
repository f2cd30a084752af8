/** What pino.multistream needs from a destination. */
export interface LineWriter {
  write(line: string): void;
}

/**
 * Reads the first string-valued `field` of a serialized record by string search (no JSON.parse).
 * Only meant for fields we write ourselves, whose values never contain an escaped quote.
 */
export function stringFieldOf(line: string, field: string): string | undefined {
  return valueAfter(line, `"${field}":"`);
}

function valueAfter(line: string, marker: string): string | undefined {
  const start = line.indexOf(marker);
  if (start < 0) {
    return undefined;
  }
  const from = start + marker.length;
  const end = line.indexOf('"', from);
  return end < 0 ? undefined : line.slice(from, end);
}

const LOGGER_MARKER = '"logger":"';
// multistream hands the same string to every routed sink in turn, so one memo entry saves the rescans.
let memoLine: string | undefined;
let memoName: string | undefined;

/**
 * The `logger` value of a serialized record. The logger name is a child binding, which pino writes
 * right after `level` and `time`, so the first match is the binding even when the record's own
 * fields contain a nested `logger` key.
 */
export function loggerNameOf(line: string): string | undefined {
  if (line !== memoLine) {
    memoLine = line;
    memoName = valueAfter(line, LOGGER_MARKER);
  }
  return memoName;
}

/**
 * A logger matches a prefix when its name starts with it; a prefix ending in '.' also matches the
 * bare parent name (`synthorg.security.` takes `synthorg.security` too), mirroring logger hierarchies.
 */
export function matchesRouting(loggerName: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) {
    if (loggerName.startsWith(prefix)) {
      return true;
    }
    if (prefix.endsWith('.') && loggerName.length === prefix.length - 1 && prefix.startsWith(loggerName)) {
      return true;
    }
  }
  return false;
}

/**
 * Forwards only records whose logger matches one of `prefixes` (pino.multistream filters by level
 * only). Records without a logger field are not routed anywhere but catch-all sinks.
 */
export function createRoutingStream(prefixes: readonly string[], target: LineWriter): LineWriter {
  const routed = [...prefixes];
  return {
    write(line: string): void {
      const name = loggerNameOf(line);
      if (name !== undefined && matchesRouting(name, routed)) {
        target.write(line);
      }
    },
  };
}
