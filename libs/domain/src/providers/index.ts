export {
  defaultRoutingConfig,
  DEFAULT_ROUTING_STRATEGY,
  isRoutingStrategy,
  parseRoutingConfig,
  ROUTING_NAME_MAX_LENGTH,
  ROUTING_STRATEGIES,
  routingConfigToJson,
  type RoutingConfig,
  type RoutingConfigJson,
  type RoutingRule,
  type RoutingRuleJson,
  type RoutingStrategy,
} from './routing-config';
export {
  cheapestOf,
  CheapestSelector,
  compareByCost,
  QuotaAwareSelector,
  totalCostPer1k,
  type CandidateSelector,
  type RoutableModel,
} from './routing-selectors';
export { routeModel, tierForSeniority, type RoutingDecision, type RoutingRequest } from './routing';
export {
  parseQuotaLimits,
  QUOTA_WINDOW_MS,
  QUOTA_WINDOWS,
  quotaLimitsToJson,
  QuotaTracker,
  windowStartMs,
  type QuotaLimits,
  type QuotaLimitsJson,
  type QuotaUsage,
  type QuotaWindow,
  type QuotaWindowSnapshot,
} from './quota';
export {
  applyDegradation,
  decideDegradation,
  DEFAULT_DEGRADATION_STRATEGY,
  DEFAULT_QUEUE_MAX_WAIT_SECONDS,
  defaultDegradationConfig,
  DEGRADATION_STRATEGIES,
  degradationToJson,
  parseDegradationConfig,
  PROVIDER_NAME_MAX_LENGTH,
  QUEUE_MAX_WAIT_SECONDS_MAX,
  QUEUE_MAX_WAIT_SECONDS_MIN,
  trackerQuotaView,
  type DegradationClock,
  type DegradationConfig,
  type DegradationConfigJson,
  type DegradationDecision,
  type DegradationOutcome,
  type DegradationStrategy,
  type ProceedDecision,
  type QuotaView,
  type WaitDecision,
} from './degradation';
export {
  errorRatePercent,
  PROVIDER_DEGRADED_ERROR_RATE_PERCENT,
  PROVIDER_DOWN_ERROR_RATE_PERCENT,
  PROVIDER_HEALTH_STATUSES,
  providerHealthStatus,
  summariseProviderHealth,
  type ProviderCallStats,
  type ProviderHealthStatus,
  type ProviderHealthSummary,
} from './health';
export {
  LOCAL_MODEL_PARAM_RANGES,
  parseLocalModelParams,
  type LocalModelParamName,
  type LocalModelParams,
} from './local-params';
export * from './address-safety';
export * from './driver';
export * from './presets';
export * from './provider-rules';
