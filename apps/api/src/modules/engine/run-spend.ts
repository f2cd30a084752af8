import type { CostEntry, SpendControl, SpendRequest, SpendVerdict } from '@app/domain';
import { ServiceUnavailableError } from '@app/domain';

/**
 * The engine's slot for the spend control that the budget module plugs in: runs reserve each model
 * call's estimated cost through it and hand it their cost records. Without one no run can account
 * for its calls, so none makes one.
 */
export class RunSpend implements SpendControl {
  private control: SpendControl | null = null;

  /** Plugs in the spend control; answers the function that takes it out again. */
  use(control: SpendControl): () => void {
    this.control = control;
    return () => {
      if (this.control === control) {
        this.control = null;
      }
    };
  }

  reserve(request: SpendRequest): Promise<SpendVerdict> {
    return this.current().reserve(request);
  }

  record(entry: CostEntry, reservationId: string | null): Promise<void> {
    return this.current().record(entry, reservationId);
  }

  release(reservationId: string): Promise<void> {
    return this.current().release(reservationId);
  }

  check(request: SpendRequest): Promise<SpendVerdict> {
    return this.current().check(request);
  }

  /** Without a spend control there are no reservations to settle. */
  settleAbandoned(owner: string): Promise<number> {
    return this.control ? this.control.settleAbandoned(owner) : Promise.resolve(0);
  }

  private current(): SpendControl {
    if (!this.control) {
      throw new ServiceUnavailableError('No spend control is registered: model calls cannot be accounted for');
    }
    return this.control;
  }
}
