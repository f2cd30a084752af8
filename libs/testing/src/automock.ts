import 'reflect-metadata';

import type { InjectionToken } from '@nestjs/common';
import { OPTIONAL_DEPS_METADATA, PARAMTYPES_METADATA, SELF_DECLARED_DEPS_METADATA } from '@nestjs/common/constants';

import { LOGGING_RUNTIME } from '@app/platform';

import { silentLoggingRuntime } from './silent-logging';

/** A value the service under test gets for one injection token (a class, an `@Inject` token). */
export interface ProvidedDependency {
  provide: InjectionToken;
  useValue: unknown;
}

/** A strict automock seen loosely: every member is a jest mock function (see `mock()` for a typed view). */
export type AutoMock = Record<string, jest.Mock>;

/** What `makeServiceUnderTest` returns: the service, and its dependencies by constructor parameter name. */
export interface ServiceUnderTest<T> {
  sut: T;
  /** Each dependency under the name of its constructor parameter (the service's `this.<name>`). */
  mocks: Readonly<Record<string, AutoMock>>;
  /**
   * The dependency injected for a class or token, typed: `mock(TasksRepository).findById`. Any class
   * qualifies by its prototype, including abstract ones and those built by a static factory behind a
   * private constructor.
   */
  mock<D>(token: ClassOf<D>): jest.Mocked<D>;
  mock<D>(token: string | symbol): jest.Mocked<D>;
}

type Constructor<T> = new (...args: never[]) => T;

/** A class seen from outside: its prototype types its instances, whatever its constructor's visibility. */
interface ClassOf<T> {
  readonly prototype: T;
}

interface Dependency {
  name: string;
  token: InjectionToken;
  value: unknown;
}

// Members that jest, node's inspector and `await` probe on any object: answering them with a
// strict stub would turn a printed or awaited mock into a spurious failure.
const PROBED = new Set(['then', 'asymmetricMatch', '$$typeof', 'nodeType', 'toJSON', 'inspect', '_isMockFunction']);
const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Symbol, BigInt]);

// Calls that reached a strict stub, checked after each test too, so an unmocked call that the
// service caught and swallowed still fails the test.
const unmockedCalls: string[] = [];
if (typeof afterEach === 'function') {
  afterEach(() => {
    const calls = takeUnmockedCalls();
    if (calls.length > 0) {
      throw new Error(`Unmocked dependency calls during this test:\n  ${calls.join('\n  ')}`);
    }
  });
}

/**
 * Empties the record of unmocked calls and returns it, for a test that provokes one on purpose
 * (otherwise the check after the test fails it).
 */
export function takeUnmockedCalls(): string[] {
  return unmockedCalls.splice(0);
}

function tokenName(token: InjectionToken): string {
  if (typeof token === 'function') {
    return token.name;
  }
  return typeof token === 'symbol' ? (token.description ?? token.toString()) : token;
}

/** A jest mock that fails the test when called before the test gave it a behaviour. */
function strictStub(owner: string, dependency: string, member: string): jest.Mock {
  const label = `${owner}'s dependency "${dependency}": ${member}()`;
  return jest
    .fn(() => {
      const message = `${label} was called but not mocked; give it a behaviour first, e.g. mocks.${dependency}.${member}.mockResolvedValue(...)`;
      unmockedCalls.push(message);
      throw new Error(message);
    })
    .mockName(`${dependency}.${member}`);
}

/** The class's members by kind, walking its prototype chain: methods, and properties behind a getter. */
function membersOf(type: unknown): { methods: string[]; getters: string[] } {
  const methods = new Set<string>();
  const getters = new Set<string>();
  let proto: unknown = typeof type === 'function' ? (type as { prototype: unknown }).prototype : null;
  while (proto && proto !== Object.prototype) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (key === 'constructor' || methods.has(key) || getters.has(key)) {
        continue;
      }
      if (typeof descriptor?.value === 'function') {
        methods.add(key);
      } else if (descriptor?.get) {
        getters.add(key);
      }
    }
    proto = Object.getPrototypeOf(proto);
  }
  return { methods: [...methods], getters: [...getters] };
}

/**
 * A getter that fails when read before the test gave it a value, so a property such as a connection
 * state is never silently answered by a stub function.
 */
function strictGetter(owner: string, dependency: string, member: string): PropertyDescriptor {
  return {
    configurable: true,
    enumerable: false,
    get() {
      const message =
        `${owner}'s dependency "${dependency}": ${member} was read but not mocked; give it a value first, ` +
        `e.g. jest.spyOn(mocks.${dependency}, '${member}', 'get').mockReturnValue(...)`;
      unmockedCalls.push(message);
      throw new Error(message);
    },
  };
}

/**
 * A strict automock of one dependency: the class's methods and getters up front, any other member on
 * first read (abstract methods and interfaces have no prototype to enumerate); each fails when called
 * or read unmocked.
 */
function strictMock(owner: string, dependency: string, type: unknown): AutoMock {
  const target: AutoMock = {};
  const { methods, getters } = membersOf(type);
  for (const name of methods) {
    target[name] = strictStub(owner, dependency, name);
  }
  for (const name of getters) {
    Object.defineProperty(target, name, strictGetter(owner, dependency, name));
  }
  return new Proxy(target, {
    get(object, prop, receiver) {
      if (typeof prop === 'symbol' || prop in object || PROBED.has(prop)) {
        return Reflect.get(object, prop, receiver) as unknown;
      }
      object[prop] = strictStub(owner, dependency, prop);
      return object[prop];
    },
  });
}

/** Constructor parameter names read from the class source, `arg<i>` where a name cannot be read. */
function parameterNames(type: Constructor<unknown>, count: number): string[] {
  const names: string[] = [];
  for (let current: unknown = type; typeof current === 'function' && names.length === 0;) {
    const source = Function.prototype.toString.call(current);
    const match = /\bconstructor\s*\(([^)]*)\)/.exec(source);
    if (match) {
      names.push(...match[1].split(',').map((part) => /^\s*([A-Za-z_$][\w$]*)\s*(=|$)/.exec(part)?.[1] ?? ''));
    }
    current = Object.getPrototypeOf(current);
  }
  return Array.from({ length: count }, (_, i) => names[i] || `arg${i}`);
}

function resolveToken(type: unknown, declared: unknown): InjectionToken {
  const token = declared ?? type;
  if (token && typeof token === 'object' && 'forwardRef' in token) {
    return (token as { forwardRef: () => InjectionToken }).forwardRef();
  }
  return token as InjectionToken;
}

function dependencies<T>(service: Constructor<T>, provided: ReadonlyArray<ProvidedDependency>): Dependency[] {
  const types = (Reflect.getMetadata(PARAMTYPES_METADATA, service) as unknown[] | undefined) ?? [];
  if (types.length < service.length) {
    throw new Error(`${service.name} has no constructor type metadata: is it decorated with @Injectable()?`);
  }
  const declared =
    (Reflect.getMetadata(SELF_DECLARED_DEPS_METADATA, service) as
      Array<{ index: number; param: unknown }> | undefined) ?? [];
  const optional = (Reflect.getMetadata(OPTIONAL_DEPS_METADATA, service) as number[] | undefined) ?? [];
  const names = parameterNames(service, types.length);
  return types.map((type, index) => {
    const token = resolveToken(type, declared.find((d) => d.index === index)?.param);
    const name = names[index];
    const given = provided.find((p) => p.provide === token);
    if (given) {
      return { name, token, value: given.useValue };
    }
    if (PRIMITIVES.has(type) || (token === undefined && !optional.includes(index))) {
      throw new Error(
        `${service.name}'s constructor parameter ${index} ("${name}") is a ${tokenName((type ?? 'undefined') as InjectionToken)}: ` +
          'pass its value as { provide: <its injection token>, useValue }',
      );
    }
    return { name, token, value: strictMock(service.name, name, type) };
  });
}

/**
 * Builds `service` with every constructor dependency replaced by a strict automock (a call nobody
 * mocked fails the test, naming the dependency and the method), except those given in `provided`
 * (`{ provide: TOKEN, useValue }`, Nest's spelling). The logging runtime defaults to a silent one.
 */
export function makeServiceUnderTest<T>(
  service: Constructor<T>,
  provided: ReadonlyArray<ProvidedDependency> = [],
): ServiceUnderTest<T> {
  const deps = dependencies(service, [...provided, { provide: LOGGING_RUNTIME, useValue: silentLoggingRuntime() }]);
  const sut = new service(...(deps.map((d) => d.value) as never[]));
  const mocks = Object.freeze(Object.fromEntries(deps.map((d) => [d.name, d.value as AutoMock])));
  const mock = (token: InjectionToken): unknown => {
    const matches = deps.filter((d) => d.token === token);
    if (matches.length !== 1) {
      const problem = matches.length === 0 ? 'is not a dependency' : 'is injected more than once (use mocks.<name>)';
      throw new Error(`${tokenName(token)} ${problem} of ${service.name}`);
    }
    return matches[0].value;
  };
  return { sut, mocks, mock: mock as ServiceUnderTest<T>['mock'] };
}
