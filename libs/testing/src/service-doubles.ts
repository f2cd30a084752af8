import type { EventBus, PublishableEvent, Transaction, UnitOfWork } from '@app/platform';

/**
 * A stand-in for a running transaction: services only hand it on to repositories and facades, which
 * are mocked in unit specs, so asserting that each write got this very object shows they shared one.
 */
export const FAKE_TRANSACTION = Object.freeze({}) as Transaction;

/** Makes a mocked unit of work run each piece of work at once, inside FAKE_TRANSACTION. */
export function runInFakeTransaction(unitOfWork: jest.Mocked<UnitOfWork>): void {
  unitOfWork.run.mockImplementation((work) => work(FAKE_TRANSACTION));
}

/** Makes a mocked event bus accept every event; the returned list fills as the service announces. */
export function recordPublished(bus: jest.Mocked<EventBus>): PublishableEvent[] {
  const published: PublishableEvent[] = [];
  bus.publish.mockImplementation((event) => {
    published.push(event);
    return Promise.resolve();
  });
  return published;
}
