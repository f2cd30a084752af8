// The providers module's public face: other modules import only from here.
export { DiscoveryPolicyService } from './discovery/discovery-policy.service';
export { GuardedFetcher } from './discovery/guarded-fetch';
export { ModelCatalog } from './model-catalog';
export { ModelRouter } from './model-router';
export { type RegisteredProvider, ProviderRegistry } from './provider-registry';
export { ProviderUsage } from './provider-usage';
export { ProvidersModule } from './providers.module';
