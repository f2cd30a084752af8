/**
 * The high-error-rate rule: an agent whose recent runs fail too often is lowered one autonomy level
 * (recovery is a person's write). The threshold is the spec's error-rate decay figure (above 15 %),
 * and a rate is judged only from the reference's minimum of five data points.
 */
export const HIGH_ERROR_RATE_DEFAULTS = { threshold: 0.15, minRuns: 5, windowHours: 168 } as const;

/** The runs' error rate and whether it is high enough to lower the agent. */
export interface ErrorRateVerdict {
  readonly runs: number;
  readonly failures: number;
  /** null below the minimum sample. */
  readonly rate: number | null;
  readonly high: boolean;
}

/** How many of an agent's recent runs there are, and how many of them failed. */
export interface OutcomeCounts {
  readonly runs: number;
  readonly failures: number;
}

/** Judges counted runs and their failures; the rate must exceed the threshold, on at least `minRuns` runs. */
export function judgeErrorRate(
  { runs, failures }: OutcomeCounts,
  threshold: number = HIGH_ERROR_RATE_DEFAULTS.threshold,
  minRuns: number = HIGH_ERROR_RATE_DEFAULTS.minRuns,
): ErrorRateVerdict {
  if (runs === 0 || runs < minRuns) {
    return { runs, failures, rate: null, high: false };
  }
  const rate = Math.round((failures / runs) * 1e4) / 1e4;
  return { runs, failures, rate, high: rate > threshold };
}
