import { Inject, Injectable, Optional } from '@nestjs/common';

import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { makeServiceUnderTest, takeUnmockedCalls } from './automock';

const CLOCK = Symbol('CLOCK');
const REGION = 'REGION';

interface Clock {
  now(): Date;
}

abstract class Notifier {
  abstract notify(message: string): Promise<void>;
}

class BaseStore {
  count(): number {
    return 0;
  }
}

@Injectable()
class WidgetStore extends BaseStore {
  get state(): 'ready' | 'closed' {
    return 'ready';
  }

  findById(id: string): Promise<{ id: string; name: string } | null> {
    return Promise.resolve({ id, name: 'real' });
  }

  rename(id: string, name: string): Promise<void> {
    return Promise.resolve(void [id, name]);
  }
}

@Injectable()
class WidgetService {
  private readonly log;

  constructor(
    private readonly store: WidgetStore,
    private readonly notifier: Notifier,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(REGION) private readonly region: string,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('widgets');
  }

  async rename(id: string, name: string): Promise<string> {
    const widget = await this.store.findById(id);
    if (!widget) {
      throw new Error('missing');
    }
    await this.store.rename(id, name);
    await this.notifier.notify(`${this.region}: ${widget.name} -> ${name} at ${this.clock.now().toISOString()}`);
    this.log.info({ id }, 'widgets.widget.renamed');
    return name;
  }

  async renameQuietly(id: string, name: string): Promise<boolean> {
    try {
      await this.store.rename(id, name);
      return true;
    } catch {
      return false;
    }
  }
}

/** Built only by its static factory, as catalogues loaded from files are. */
class Catalogue {
  private constructor(private readonly entries: string[]) {}

  static of(...entries: string[]): Catalogue {
    return new Catalogue(entries);
  }

  has(entry: string): boolean {
    return this.entries.includes(entry);
  }
}

@Injectable()
class Shelf {
  constructor(private readonly catalogue: Catalogue) {}

  stocks(entry: string): boolean {
    return this.catalogue.has(entry);
  }
}

@Injectable()
class Greeter {
  constructor(@Optional() private readonly store?: WidgetStore) {}

  hello(): string {
    return this.store ? 'with store' : 'alone';
  }
}

@Injectable()
class NeedsPrimitive {
  constructor(readonly limit: number) {}
}

class Undecorated {
  constructor(readonly store: WidgetStore) {}
}

const T0 = new Date('2026-01-01T00:00:00.000Z');

function build() {
  return makeServiceUnderTest(WidgetService, [{ provide: REGION, useValue: 'eu' }]);
}

describe(makeServiceUnderTest.name, () => {
  it('should build the service with mocks keyed by constructor parameter name when dependencies are classes and tokens', async () => {
    const { sut, mocks, mock } = build();
    mock(WidgetStore).findById.mockResolvedValue({ id: 'w1', name: 'old' });
    mock(WidgetStore).rename.mockResolvedValue();
    mocks.notifier.notify.mockResolvedValue(undefined);
    mock<Clock>(CLOCK).now.mockReturnValue(T0);

    await expect(sut.rename('w1', 'new')).resolves.toBe('new');

    expect(mocks.store).toBe(mock(WidgetStore));
    expect(mocks.clock).toBe(mock(CLOCK));
    expect(mocks.store.rename).toHaveBeenCalledWith('w1', 'new');
    expect(mocks.notifier.notify).toHaveBeenCalledWith('eu: old -> new at 2026-01-01T00:00:00.000Z');
  });

  it('should fail with the dependency and method named when an unmocked method is called', async () => {
    const { sut } = build();

    await expect(sut.rename('w1', 'new')).rejects.toThrow(
      `WidgetService's dependency "store": findById() was called but not mocked`,
    );

    expect(takeUnmockedCalls()).toHaveLength(1);
  });

  it('should record an unmocked call when the service swallows its error', async () => {
    const { sut } = build();

    await expect(sut.renameQuietly('w1', 'new')).resolves.toBe(false);

    expect(takeUnmockedCalls()).toEqual([expect.stringContaining('"store": rename() was called but not mocked')]);
  });

  it('should stub inherited methods and members of abstract classes and token interfaces when first read', () => {
    const { mocks } = build();

    expect(() => mocks.store.count()).toThrow('"store": count() was called but not mocked');
    expect(() => mocks.notifier.notify('x')).toThrow('"notifier": notify() was called but not mocked');
    expect(() => mocks.clock.now()).toThrow('"clock": now() was called but not mocked');
    expect(takeUnmockedCalls()).toHaveLength(3);
  });

  it('should let a mock be printed and awaited without tripping the strict stubs', async () => {
    const { mocks } = build();

    await expect(Promise.resolve(mocks.notifier)).resolves.toBe(mocks.notifier);
    expect(mocks.notifier).toEqual(mocks.notifier);
    expect(takeUnmockedCalls()).toEqual([]);
  });

  it('should use a provided value instead of a mock when the caller gives one for a token or class', () => {
    const store = new WidgetStore();
    const { mocks, mock } = makeServiceUnderTest(WidgetService, [
      { provide: REGION, useValue: 'us' },
      { provide: WidgetStore, useValue: store },
    ]);

    expect(mock(WidgetStore)).toBe(store);
    expect(mocks.region).toBe('us');
  });

  it('should give a silent logging runtime when none is provided', () => {
    const { mock } = build();

    expect(mock<LoggingRuntime>(LOGGING_RUNTIME).forName('x').isLevelEnabled('error')).toBe(false);
  });

  it('should fail on reading a getter nobody mocked and answer the value a spy gives it', () => {
    const { mock } = build();
    const store = mock(WidgetStore);

    expect(() => store.state).toThrow(`"store": state was read but not mocked`);
    expect(takeUnmockedCalls()).toHaveLength(1);

    jest.spyOn(store, 'state', 'get').mockReturnValue('closed');
    expect(store.state).toBe('closed');
  });

  it('should give a typed mock of a class when its constructor is private', () => {
    const { sut, mock } = makeServiceUnderTest(Shelf);
    mock(Catalogue).has.mockReturnValue(true);

    expect(sut.stocks('atlas')).toBe(true);
    expect(mock(Catalogue).has).toHaveBeenCalledWith('atlas');
    expect(Catalogue.of('atlas').has('atlas')).toBe(true);
  });

  it('should mock an optional dependency like any other', () => {
    const { sut, mocks } = makeServiceUnderTest(Greeter);

    expect(sut.hello()).toBe('with store');
    expect(Object.keys(mocks)).toEqual(['store']);
  });

  it('should refuse to guess a primitive when no value is provided for it', () => {
    expect(() => makeServiceUnderTest(NeedsPrimitive)).toThrow(
      `NeedsPrimitive's constructor parameter 0 ("limit") is a Number`,
    );
    expect(() => makeServiceUnderTest(WidgetService)).toThrow(`parameter 3 ("region") is a String`);
  });

  it('should refuse a class without constructor metadata', () => {
    expect(() => makeServiceUnderTest(Undecorated)).toThrow('Undecorated has no constructor type metadata');
  });

  it('should refuse a lookup when the token is not a dependency', () => {
    const { mock } = build();

    expect(() => mock(Greeter)).toThrow('Greeter is not a dependency of WidgetService');
  });
});
