/**
 * Questions on the terminal (a password without echo) and secrets piped on stdin. Nothing is asked
 * when stdin is not a terminal: a script gets a usage error naming the flag to pass instead.
 */
import { CliError, ExitCode } from './errors';
import type { Io } from './context';

function needTerminal(io: Io, flag: string): void {
  if (!io.stdin.isTTY) {
    throw new CliError(`stdin is not a terminal: pass ${flag}`, ExitCode.Usage);
  }
}

/** Asks on stderr and reads one visible line from the terminal; an empty answer takes `fallback`. */
export async function ask(io: Io, question: string, flag: string, fallback?: string): Promise<string> {
  needTerminal(io, flag);
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  try {
    const suffix = fallback !== undefined ? ` [${fallback}]` : '';
    const answer = (await rl.question(`${question}${suffix}: `)).trim();
    return answer === '' && fallback !== undefined ? fallback : answer;
  } finally {
    rl.close();
  }
}

/** Reads a secret from the terminal without echoing it. */
export async function askHidden(io: Io, question: string, flag: string): Promise<string> {
  needTerminal(io, flag);
  const { stdin, stderr } = io;
  // Echo goes off before the question shows, so nothing typed (or pasted) after it is echoed.
  const wasRaw = stdin.isRaw;
  stdin.setRawMode(true);
  stderr.write(`${question}: `);
  return await new Promise((resolve, reject) => {
    let value = '';
    stdin.resume();
    stdin.setEncoding('utf8');
    const finish = (error: Error | null) => {
      stdin.setRawMode(wasRaw);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      if (error) {
        reject(error);
      } else {
        resolve(value);
      }
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish(null);
          return;
        }
        if (char === '\u0003') {
          finish(new CliError('interrupted', ExitCode.Usage));
          return;
        }
        if (char === '\u007f' || char === '\b') {
          value = value.slice(0, -1);
        } else if (char >= ' ') {
          value += char;
        }
      }
    };
    stdin.on('data', onData);
  });
}

/** Everything on stdin, without its final line break (for `--password-stdin`). */
export async function readStdin(io: Io, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  }
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (text === '') {
    throw new CliError(`no ${what} on stdin`, ExitCode.Usage);
  }
  return text;
}

/** The lines of stdin (several secrets piped at once). */
export async function readStdinLines(io: Io, what: string, count: number): Promise<string[]> {
  const lines = (await readStdin(io, what)).split(/\r?\n/);
  if (lines.length < count || lines.slice(0, count).some((line) => line === '')) {
    throw new CliError(`stdin must carry ${count} lines: ${what}`, ExitCode.Usage);
  }
  return lines.slice(0, count);
}
