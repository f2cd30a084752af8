import { ErrorCode, ValidationError } from '../errors';

/** A model some registered provider offers, with what the router needs to rank it. */
export interface RoutableModel {
  provider: string;
  id: string;
  alias: string | null;
  costPer1kInput: number;
  costPer1kOutput: number;
  maxContext: number;
  /** Null when the provider has reported no latency for the model. */
  estimatedLatencyMs: number | null;
}

/**
 * Chooses among the variants of one model reference (the same id or alias registered by several
 * providers). `candidates` is never empty when the router calls it.
 */
export interface CandidateSelector {
  select(candidates: RoutableModel[]): RoutableModel;
}

/** Price of 1k input plus 1k output tokens: the figure models are ranked and budgeted by. */
export function totalCostPer1k(model: RoutableModel): number {
  return model.costPer1kInput + model.costPer1kOutput;
}

/** Code-unit order, independent of the host's locale so that routing is deterministic everywhere. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Cheapest first; ties broken by provider name, then model id. */
export function compareByCost(a: RoutableModel, b: RoutableModel): number {
  return totalCostPer1k(a) - totalCostPer1k(b) || compareText(a.provider, b.provider) || compareText(a.id, b.id);
}

/** The cheapest of the candidates (see compareByCost). */
export function cheapestOf(candidates: readonly RoutableModel[]): RoutableModel {
  if (candidates.length === 0) {
    throw new ValidationError('no candidate models to select from', ErrorCode.RoutingUnresolved);
  }
  return [...candidates].sort(compareByCost)[0];
}

/** Always the cheapest variant, whatever the providers' quotas. */
export class CheapestSelector implements CandidateSelector {
  select(candidates: RoutableModel[]): RoutableModel {
    return cheapestOf(candidates);
  }
}

/**
 * Prefers variants whose provider still has quota, then the cheapest of them. When no provider has
 * quota left it answers the cheapest variant overall (quota degradation then decides what to do).
 */
export class QuotaAwareSelector implements CandidateSelector {
  constructor(private readonly hasQuota: (provider: string) => boolean) {}

  select(candidates: RoutableModel[]): RoutableModel {
    const answers = new Map<string, boolean>();
    const withQuota = candidates.filter((candidate) => {
      let answer = answers.get(candidate.provider);
      if (answer === undefined) {
        answer = this.hasQuota(candidate.provider);
        answers.set(candidate.provider, answer);
      }
      return answer;
    });
    return cheapestOf(withQuota.length > 0 ? withQuota : candidates);
  }
}
