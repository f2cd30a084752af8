import { WriteBehindBuffers } from './write-behind-buffers';

describe('WriteBehindBuffers', () => {
  it('should flush every registered buffer and wait for all of them', async () => {
    const buffers = new WriteBehindBuffers();
    const flushed: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    buffers.register({ name: 'a', flush: () => Promise.resolve(void flushed.push('a')) });
    buffers.register({ name: 'b', flush: () => slow.then(() => void flushed.push('b')) });

    let done = false;
    const all = buffers.flushAll().then((failed) => {
      done = true;
      return failed;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    release();

    expect(await all).toEqual([]);
    expect(flushed.sort()).toEqual(['a', 'b']);
  });

  it('should name the buffers whose flush failed, after the others flushed', async () => {
    const buffers = new WriteBehindBuffers();
    const flushed: string[] = [];
    buffers.register({ name: 'broken', flush: () => Promise.reject(new Error('down')) });
    buffers.register({ name: 'fine', flush: () => Promise.resolve(void flushed.push('fine')) });

    expect(await buffers.flushAll()).toEqual(['broken']);
    expect(flushed).toEqual(['fine']);
  });

  it('should refuse a second buffer of the same name, and forget one unregistered', async () => {
    const buffers = new WriteBehindBuffers();
    let flushes = 0;
    const off = buffers.register({ name: 'calls', flush: () => Promise.resolve(void (flushes += 1)) });
    expect(() => buffers.register({ name: 'calls', flush: () => Promise.resolve() })).toThrow(/already registered/);

    off();
    await buffers.flushAll();
    expect(flushes).toBe(0);
  });
});
