/** What pino.multistream needs from a destination. */
export interface LineWriter {
  write(line: string): void;
}

const LOGGER_FIELD = '"logger":"';

/**
 * Reads the `logger` value from a serialized record without parsing it. The logger name is a child
 * binding, which pino writes right after `level` and `time`, so the first match is the binding even
 * when the record's own fields contain a nested `logger` key.
 */
export function loggerNameOf(line: string): string | undefined {
  const start = line.indexOf(LOGGER_FIELD);
  if (start < 0) {
    return undefined;
  }
  const from = start + LOGGER_FIELD.length;
  const end = line.indexOf('"', from);
  return end < 0 ? undefined : line.slice(from, end);
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
