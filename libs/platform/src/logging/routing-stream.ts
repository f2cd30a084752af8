import pino from 'pino';

/** What the sink router needs from a destination. */
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

export interface RoutedSink {
  /** Least severe pino level value the sink takes. */
  level: number;
  /** Logger-name prefixes the sink takes; empty: every logger (catch-all). */
  prefixes: readonly string[];
  destination: LineWriter;
}

/** Hands a serialized record and its pino level value to wherever records go. */
export type RecordWriter = (line: string, level: number) => void;

/** What pino hands a stream that asks for record metadata. */
export interface LevelledStream extends LineWriter {
  lastLevel?: number;
}

/**
 * The stream pino writes to: it passes each serialized record on with its level, which pino sets
 * on a stream that declares it needs record metadata (so no sink has to parse the level back).
 */
export function createLevelledStream(writeRecord: RecordWriter): LevelledStream {
  const stream: LevelledStream & { [key: symbol]: unknown } = {
    write(line: string): void {
      writeRecord(line, stream.lastLevel ?? 0);
    },
  };
  stream[pino.symbols.needsMetadataGsym] = true;
  return stream;
}

/**
 * Fans each record out to the sinks that take it, by level and logger name: the pino.multistream
 * of this service, with routing built in. Which sinks take a (logger, level) pair is worked out
 * once and remembered, so a record costs one lookup however many sinks there are.
 */
export function createRecordRouter(sinks: readonly RoutedSink[]): RecordWriter {
  const routes = new Map<number, Map<string, readonly LineWriter[]>>();
  const resolve = (level: number, name: string | undefined): readonly LineWriter[] =>
    sinks
      .filter(
        (sink) =>
          level >= sink.level &&
          (sink.prefixes.length === 0 || (name !== undefined && matchesRouting(name, sink.prefixes))),
      )
      .map((sink) => sink.destination);
  return (line: string, level: number): void => {
    const name = loggerNameOf(line);
    let byName = routes.get(level);
    if (!byName) {
      byName = new Map();
      routes.set(level, byName);
    }
    const key = name ?? '';
    let targets = byName.get(key);
    if (!targets) {
      targets = resolve(level, name);
      // Logger names come from code, but bound the memo all the same.
      if (byName.size < 4096) {
        byName.set(key, targets);
      }
    }
    for (const target of targets) {
      target.write(line);
    }
  };
}
