import { BatchedWriter, type ChunkTarget } from './batched-writer';

/** A target whose writes complete only when the test says so. */
class ManualTarget implements ChunkTarget {
  readonly chunks: string[] = [];
  private readonly callbacks: Array<() => void> = [];

  write(chunk: string, callback: () => void): boolean {
    this.chunks.push(chunk);
    this.callbacks.push(callback);
    return true;
  }

  complete(): void {
    this.callbacks.shift()?.();
  }
}

describe('BatchedWriter', () => {
  it('should coalesce lines queued behind an in-flight write into one chunk when it completes', async () => {
    const target = new ManualTarget();
    const writer = new BatchedWriter(target, { identifier: 't', maxChunkChars: 1000, maxPendingChars: 10_000 });
    writer.write('a\n');
    writer.write('b\n');
    writer.write('c\n');
    expect(target.chunks).toEqual(['a\n']);
    const flushed = writer.flush();
    target.complete();
    expect(target.chunks).toEqual(['a\n', 'b\nc\n']);
    target.complete();
    await expect(flushed).resolves.toBeUndefined();
  });

  it('should split the backlog into chunks of whole lines when it exceeds the chunk limit', () => {
    const target = new ManualTarget();
    const writer = new BatchedWriter(target, { identifier: 't', maxChunkChars: 4, maxPendingChars: 10_000 });
    for (const line of ['first\n', 'ab\n', 'cd\n', 'ef\n']) {
      writer.write(line);
    }
    target.complete();
    target.complete();
    target.complete();
    expect(target.chunks).toEqual(['first\n', 'ab\n', 'cd\n', 'ef\n']);
  });

  it('should drop lines when the backlog limit is reached', () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const target = new ManualTarget();
    const writer = new BatchedWriter(target, { identifier: 'drop-test', maxChunkChars: 100, maxPendingChars: 6 });
    writer.write('aaaa\n');
    writer.write('bbbb\n');
    writer.write('cc\n');
    target.complete();
    expect(target.chunks).toEqual(['aaaa\n', 'bbbb\n']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('drop-test'), expect.anything());
    warn.mockRestore();
  });
});

describe('BatchedWriter with linger', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const lingering = (target: ManualTarget, maxChunkChars = 1000): BatchedWriter =>
    new BatchedWriter(target, { identifier: 't', maxChunkChars, maxPendingChars: 10_000, lingerMs: 10 });

  it('should hold lines for the linger time and write them as one chunk', () => {
    const target = new ManualTarget();
    const writer = lingering(target);
    writer.write('a\n');
    writer.write('b\n');
    expect(target.chunks).toEqual([]);
    jest.advanceTimersByTime(10);
    expect(target.chunks).toEqual(['a\nb\n']);
  });

  it('should write at once when a full chunk is waiting, and on flush', async () => {
    const target = new ManualTarget();
    const writer = lingering(target, 4);
    writer.write('abcd\n');
    expect(target.chunks).toEqual(['abcd\n']);
    target.complete();
    writer.write('e\n');
    expect(target.chunks).toEqual(['abcd\n']);
    const flushed = writer.flush();
    expect(target.chunks).toEqual(['abcd\n', 'e\n']);
    target.complete();
    await expect(flushed).resolves.toBeUndefined();
  });

  it('should let lines that arrive during a write linger again before the next write', () => {
    const target = new ManualTarget();
    const writer = lingering(target);
    writer.write('a\n');
    jest.advanceTimersByTime(10);
    writer.write('b\n');
    target.complete();
    expect(target.chunks).toEqual(['a\n']);
    writer.write('c\n');
    jest.advanceTimersByTime(10);
    expect(target.chunks).toEqual(['a\n', 'b\nc\n']);
  });
});
