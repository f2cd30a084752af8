import { KeyedMutex } from './keyed-mutex';

describe(KeyedMutex.name, () => {
  it('should run sections with the same key one after another', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    const section = (name: string, ms: number) => async (): Promise<void> => {
      order.push(`${name}:start`);
      await new Promise((done) => setTimeout(done, ms));
      order.push(`${name}:end`);
    };

    await Promise.all([mutex.run('k', section('a', 20)), mutex.run('k', section('b', 1))]);

    expect(order).toEqual(['a:start', 'a:end', 'b:start', 'b:end']);
  });

  it('should run sections with different keys side by side', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    const section = (name: string, ms: number) => async (): Promise<void> => {
      order.push(`${name}:start`);
      await new Promise((done) => setTimeout(done, ms));
      order.push(`${name}:end`);
    };

    await Promise.all([mutex.run('a', section('a', 20)), mutex.run('b', section('b', 1))]);

    expect(order).toEqual(['a:start', 'b:start', 'b:end', 'a:end']);
  });

  it('should release the key for the next section when an exclusive section throws', async () => {
    const mutex = new KeyedMutex();

    const failing = mutex.run('k', () => Promise.reject(new Error('boom')));
    const next = mutex.run('k', () => Promise.resolve('next'));

    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  describe('shared sections', () => {
    function recorder() {
      const order: string[] = [];
      const section = (name: string, ms: number) => async (): Promise<string> => {
        order.push(`${name}:start`);
        await new Promise((done) => setTimeout(done, ms));
        order.push(`${name}:end`);
        return name;
      };
      return { order, section };
    }

    it('should run shared sections with the same key side by side', async () => {
      const mutex = new KeyedMutex();
      const { order, section } = recorder();

      await Promise.all([mutex.runShared('k', section('r1', 20)), mutex.runShared('k', section('r2', 1))]);

      expect(order).toEqual(['r1:start', 'r2:start', 'r2:end', 'r1:end']);
    });

    it('should let an exclusive section wait for the shared ones running and run alone', async () => {
      const mutex = new KeyedMutex();
      const { order, section } = recorder();

      await Promise.all([
        mutex.runShared('k', section('r1', 15)),
        mutex.runShared('k', section('r2', 5)),
        mutex.run('k', section('w', 5)),
      ]);

      expect(order.indexOf('w:start')).toBeGreaterThan(order.indexOf('r1:end'));
      expect(order.indexOf('w:start')).toBeGreaterThan(order.indexOf('r2:end'));
    });

    it('should queue a shared section that arrives after a waiting exclusive one behind it', async () => {
      const mutex = new KeyedMutex();
      const { order, section } = recorder();

      await Promise.all([
        mutex.runShared('k', section('r1', 15)),
        mutex.run('k', section('w', 5)),
        mutex.runShared('k', section('r2', 1)),
      ]);

      expect(order).toEqual(['r1:start', 'r1:end', 'w:start', 'w:end', 'r2:start', 'r2:end']);
    });

    it('should start a new group for a shared section that arrives after the last one finished', async () => {
      const mutex = new KeyedMutex();
      const { order, section } = recorder();

      await mutex.runShared('k', section('r1', 1));
      const late = mutex.runShared('k', section('r2', 1));
      const writer = mutex.run('k', section('w', 1));
      await Promise.all([late, writer]);

      expect(order).toEqual(['r1:start', 'r1:end', 'r2:start', 'r2:end', 'w:start', 'w:end']);
    });

    it('should release the key for the next section when a shared section throws', async () => {
      const mutex = new KeyedMutex();
      const { order, section } = recorder();

      const failing = mutex.runShared('k', () => Promise.reject(new Error('boom')));
      const writer = mutex.run('k', section('w', 1));

      await expect(failing).rejects.toThrow('boom');
      await expect(writer).resolves.toBe('w');
      expect(order).toEqual(['w:start', 'w:end']);
    });
  });
});
