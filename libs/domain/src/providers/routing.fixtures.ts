// Shared fixtures of the routing specs (excluded from the build).
import { AppError } from '../errors';
import { routeModel, type RoutingRequest } from './routing';
import type { RoutingConfig, RoutingRule, RoutingStrategy } from './routing-config';
import { CheapestSelector, type CandidateSelector, type RoutableModel } from './routing-selectors';

export const model = (
  provider: string,
  id: string,
  cost: number,
  options: { alias?: string; latency?: number | null } = {},
): RoutableModel => ({
  provider,
  id,
  alias: options.alias ?? null,
  costPer1kInput: cost / 4,
  costPer1kOutput: (cost * 3) / 4,
  maxContext: 128_000,
  estimatedLatencyMs: options.latency ?? null,
});

// Price order: llama-3 (0.5) < claude-haiku (1) < gpt-4.1-mini (2) < claude-sonnet (6) < gpt-4.1 (10).
export const CATALOGUE: readonly RoutableModel[] = [
  model('openai', 'gpt-4.1', 10, { alias: 'flagship', latency: 900 }),
  model('openai', 'gpt-4.1-mini', 2, { latency: 400 }),
  model('anthropic', 'claude-haiku', 1, { alias: 'fast', latency: 300 }),
  model('anthropic', 'claude-sonnet', 6, { latency: 700 }),
  model('local', 'llama-3', 0.5),
];

export const cheapest = new CheapestSelector();

export const config = (
  strategy: RoutingStrategy,
  rules: RoutingRule[] = [],
  fallbackChain: string[] = [],
): RoutingConfig => ({
  strategy,
  rules,
  fallbackChain,
});

export const route = (
  cfg: RoutingConfig,
  request: RoutingRequest,
  models: readonly RoutableModel[] = CATALOGUE,
  selector: CandidateSelector = cheapest,
) => routeModel(models, cfg, request, selector);

export function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected an AppError');
}
