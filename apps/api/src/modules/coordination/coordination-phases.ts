import { AppError, type CoordinationPhase, ErrorCode, ValidationError } from '@app/domain';

import type { CoordinationPhaseResultDto } from './dto/coordination.dto';

/** A phase that aborted the run: the API answers 400 naming it. */
export class PhaseFailedError extends ValidationError {
  constructor(
    readonly phase: CoordinationPhase,
    readonly reason: string,
  ) {
    super(
      `Coordination failed at phase ${phase}: ${reason}`,
      ABORT_CODES[phase] ?? ErrorCode.CoordinationValidateFailed,
    );
  }
}

const ABORT_CODES: Partial<Record<CoordinationPhase, ErrorCode>> = {
  decompose: ErrorCode.CoordinationDecomposeFailed,
  route: ErrorCode.CoordinationRouteFailed,
  validate: ErrorCode.CoordinationValidateFailed,
};

const round = (seconds: number): number => Math.round(seconds * 1e6) / 1e6;

/** The phases of one coordination as they run, each timed, with its error when it failed. */
export class PhaseRecorder {
  readonly phases: CoordinationPhaseResultDto[] = [];

  /** Runs an aborting phase: a failure is recorded, then thrown as PhaseFailedError. */
  async abortOnFailure<T>(phase: CoordinationPhase, work: () => Promise<T> | T): Promise<T> {
    const started = performance.now();
    try {
      const value = await work();
      this.add(phase, started, null);
      return value;
    } catch (error) {
      const reason = reasonOf(error);
      this.add(phase, started, reason);
      // Errors the client must see as they are (a lost compare-and-set, a budget refusal, no database) pass through.
      if (error instanceof AppError && !(error instanceof ValidationError)) {
        throw error;
      }
      throw new PhaseFailedError(phase, reason);
    }
  }

  /** Runs a phase whose failure is recorded and does not abort; answers null when it failed. */
  async recordFailure<T>(phase: CoordinationPhase, work: () => Promise<T>): Promise<T | null> {
    const started = performance.now();
    try {
      const value = await work();
      this.add(phase, started, null);
      return value;
    } catch (error) {
      this.add(phase, started, reasonOf(error));
      return null;
    }
  }

  /** Records a phase that ran but reports a failure of its own (dispatch with failed subtasks). */
  add(phase: CoordinationPhase, startedAt: number, error: string | null): void {
    const duration = round((performance.now() - startedAt) / 1000);
    this.phases.push(
      error === null
        ? { phase, success: true, duration_seconds: duration }
        : { phase, success: false, duration_seconds: duration, error },
    );
  }

  get failed(): CoordinationPhaseResultDto | undefined {
    return this.phases.find((p) => !p.success);
  }

  get isSuccess(): boolean {
    return this.phases.every((p) => p.success);
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof PhaseFailedError) {
    return error.reason;
  }
  return error instanceof Error ? error.message : String(error);
}
