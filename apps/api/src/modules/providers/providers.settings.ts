import { defineSettings, ROUTING_STRATEGIES } from '@app/domain';

/** The `providers` namespace: how calls are routed and retried, and the discovery allowlist. */
export const PROVIDERS_SETTINGS = defineSettings('providers', [
  {
    key: 'default_provider',
    type: 'str',
    default: null,
    description: 'Provider used when an agent names none',
    group: 'Routing',
  },
  {
    key: 'routing_strategy',
    type: 'enum',
    default: 'cost_aware',
    description: 'How the model router picks a model for each call',
    group: 'Routing',
    enumValues: [...ROUTING_STRATEGIES].sort(),
    // The YAML routing block and the older variable stay sources of this one value.
    yamlPath: 'providers.routing.strategy',
    envAliases: ['SYNTHORG_ROUTING_STRATEGY'],
  },
  {
    key: 'retry_max_attempts',
    type: 'int',
    default: '3',
    description: 'Attempts of a failed provider call, the first included',
    group: 'Resilience',
    level: 'advanced',
    min: 1,
    max: 10,
  },
  {
    key: 'configs',
    type: 'json',
    default: null,
    description: 'Provider configurations keyed by provider name',
    group: 'Providers',
    sensitive: true,
  },
  {
    key: 'discovery_allowlist',
    type: 'json',
    default: null,
    description: 'host:port entries discovery and probing may reach although private (unset: the local presets)',
    group: 'Discovery',
    level: 'advanced',
  },
]);
