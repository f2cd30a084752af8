/** Risk taken in an interval, as the risk tracker sums it. */
export interface RiskSummary {
  readonly totalRiskUnits: number;
  readonly byAgent: Readonly<Record<string, number>>;
  readonly byActionType: Readonly<Record<string, number>>;
  /** Risk units per UTC day, ascending, days without risk left out. */
  readonly daily: readonly { day: Date; riskUnits: number }[];
}

/**
 * Where reports read risk: the risk tracker, bound by the module that keeps risk records. Without
 * one, a report cannot hold a risk-trends section. The interval is half-open, [from, to).
 */
export abstract class RiskSource {
  abstract summary(from: Date, to: Date): Promise<RiskSummary>;
}
