import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';

import {
  applyDegradation,
  CheapestSelector,
  defaultDegradationConfig,
  type DegradationOutcome,
  parseRoutingConfig,
  QuotaAwareSelector,
  type RoutableModel,
  routeModel,
  type RoutingConfig,
  type RoutingDecision,
  type RoutingRequest,
  type RoutingStrategy,
  type SeniorityLevel,
} from '@app/domain';
import { APP_CONFIG, type AppConfig } from '@app/platform';

import { SettingsSnapshot } from '../settings';

import { ProviderQuotas } from './provider-quotas';
import { ProviderRegistry } from './provider-registry';

/**
 * Chooses the model for a call (the `routing.strategy` table) over the registry's current models,
 * and applies quota degradation at task assignment. The runtime asks it; it never calls a provider.
 * The strategy is the runtime setting `providers.routing_strategy`: the router is rebuilt when it
 * changes on any replica; rules and the fallback chain come from the YAML routing block.
 */
@Injectable()
export class ModelRouter implements OnModuleInit, OnModuleDestroy {
  private config: RoutingConfig;
  private readonly base: RoutingConfig;
  private stopWatching: (() => void) | null = null;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly quotas: ProviderQuotas,
    @Inject(APP_CONFIG) appConfig: AppConfig,
    private readonly settings: SettingsSnapshot,
  ) {
    this.base = parseRoutingConfig(appConfig.providers.routing);
    this.config = this.base;
  }

  /** Once every module declared its settings: the running strategy, and a rebuild on each change. */
  onModuleInit(): void {
    const build = (strategy: RoutingStrategy): RoutingConfig => ({ ...this.base, strategy });
    this.config = build(this.settings.value<RoutingStrategy>('providers', 'routing_strategy'));
    this.stopWatching = this.settings.watch('providers', 'routing_strategy', (strategy) => {
      this.config = build(strategy as RoutingStrategy);
    });
  }

  onModuleDestroy(): void {
    this.stopWatching?.();
  }

  get routing(): RoutingConfig {
    return this.config;
  }

  /** Every model of every registered provider; variants of one id from several providers all appear. */
  models(): RoutableModel[] {
    return this.registry.list().flatMap(({ record }) =>
      record.models.map((m) => ({
        provider: record.name,
        id: m.id,
        alias: m.alias,
        costPer1kInput: m.costPer1kInput,
        costPer1kOutput: m.costPer1kOutput,
        maxContext: m.maxContext,
        estimatedLatencyMs: m.estimatedLatencyMs,
      })),
    );
  }

  /**
   * Routes with the default selector (providers with quota first, then the cheapest) or, with
   * `cheapest`, the alternative that always takes the lowest total price per 1k tokens.
   */
  route(request: RoutingRequest, selector: 'quota_aware' | 'cheapest' = 'quota_aware'): RoutingDecision {
    const chosen =
      selector === 'cheapest'
        ? new CheapestSelector()
        : new QuotaAwareSelector((provider) => this.quotas.hasCapacity(provider));
    return routeModel(this.models(), this.config, request, chosen);
  }

  /**
   * The model the seniority table gives a level (the `role_based` cascade: the routing rules for the
   * level, else the default of its tier), whatever strategy runs: what a new hire of that level gets.
   */
  forSeniority(level: SeniorityLevel): RoutingDecision {
    return routeModel(
      this.models(),
      { ...this.config, strategy: 'role_based' },
      { agentLevel: level },
      new CheapestSelector(),
    );
  }

  /** Pre-flight degradation for a provider at task assignment (never mid-execution). */
  preflight(
    provider: string,
    clock: { now(): number; sleep(ms: number): Promise<void> } = {
      now: () => Date.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
  ): Promise<DegradationOutcome> {
    const registered = this.registry.get(provider);
    const degradation = registered?.record.degradation ?? defaultDegradationConfig();
    return applyDegradation(
      provider,
      degradation,
      {
        hasCapacity: (p: string) => this.quotas.hasCapacity(p, 0, clock.now()),
        nextResetMs: (p: string) => this.quotas.nextResetMs(p, clock.now()),
      },
      clock,
    );
  }
}
