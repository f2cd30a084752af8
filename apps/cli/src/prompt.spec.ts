import { PassThrough } from 'node:stream';

import { Context, type Io } from './context';
import { ask, askHidden, readStdin, readStdinLines } from './prompt';

/** A fake terminal: a stdin that records raw mode, a stderr and stdout that collect what was written. */
function terminal(isTty: boolean) {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: isTty,
    isRaw: false,
    setRawMode(this: { isRaw: boolean }, raw: boolean) {
      this.isRaw = raw;
      return this;
    },
  });
  const written = { stderr: '', stdout: '' };
  const sink = (key: 'stderr' | 'stdout') =>
    Object.assign(new PassThrough(), { isTTY: isTty }).on('data', (c: Buffer) => (written[key] += c.toString()));
  const io = { stdin, stderr: sink('stderr'), stdout: sink('stdout'), env: {} } as unknown as Io;
  return { io, stdin, written };
}

describe('prompts and piped secrets', () => {
  it('should read a password in raw mode without echoing it, honouring backspace', async () => {
    const { io, stdin, written } = terminal(true);
    const answer = askHidden(io, 'Password', '--password-stdin');
    expect(stdin.isRaw).toBe(true);
    stdin.write('hunter22x\u007f2\r');
    await expect(answer).resolves.toBe('hunter222');
    expect(stdin.isRaw).toBe(false);
    await new Promise((done) => setImmediate(done));
    expect(written.stderr).toBe('Password: \n');
  });

  it('should stop on Ctrl-C', async () => {
    const { io, stdin } = terminal(true);
    const answer = askHidden(io, 'Password', '--password-stdin');
    stdin.write('abc\u0003');
    await expect(answer).rejects.toThrow('interrupted');
  });

  it('should refuse to ask without a terminal, naming the flag to use instead', async () => {
    const { io } = terminal(false);
    await expect(askHidden(io, 'Password', '--password-stdin')).rejects.toMatchObject({
      exitCode: 2,
      message: 'stdin is not a terminal: pass --password-stdin',
    });
    await expect(ask(io, 'Company', '--company')).rejects.toMatchObject({ exitCode: 2 });
  });

  it('should read a secret from stdin without its final line break, and refuse an empty one', async () => {
    const piped = terminal(false);
    piped.stdin.end('correct horse battery\n');
    await expect(readStdin(piped.io, 'password')).resolves.toBe('correct horse battery');
    const empty = terminal(false);
    empty.stdin.end('');
    await expect(readStdin(empty.io, 'password')).rejects.toMatchObject({ exitCode: 2 });
    const two = terminal(false);
    two.stdin.end('old-password\nnew-password\n');
    await expect(readStdinLines(two.io, 'both', 2)).resolves.toEqual(['old-password', 'new-password']);
  });
});

describe('progress of long operations', () => {
  it('should draw a spinner on a terminal and clear it when done', async () => {
    const { io, written } = terminal(true);
    const ctx = new Context({}, io);
    await expect(ctx.progress('Taking a backup', () => Promise.resolve(42))).resolves.toBe(42);
    await new Promise((done) => setImmediate(done));
    expect(written.stderr).toContain('Taking a backup (0 s)');
    expect(written.stderr.endsWith('\r\u001b[2K')).toBe(true);
  });

  it('should draw nothing when stderr is not a terminal, or for --json', async () => {
    const plain = terminal(false);
    await new Context({}, plain.io).progress('Working', () => Promise.resolve());
    const json = terminal(true);
    await new Context({ json: true }, json.io).progress('Working', () => Promise.resolve());
    await new Promise((done) => setImmediate(done));
    expect(plain.written.stderr).toBe('');
    expect(json.written.stderr).toBe('');
  });

  it('should refuse --json with --quiet', () => {
    expect(() => new Context({ json: true, quiet: true }, terminal(false).io)).toThrow('exclude each other');
  });
});
