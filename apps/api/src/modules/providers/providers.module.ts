import { Module } from '@nestjs/common';

import { DiscoveryPolicyController } from './discovery-policy.controller';
import { DiscoveryPolicyService } from './discovery/discovery-policy.service';
import { DiscoveryService } from './discovery/discovery.service';
import { LocalHealthProber } from './local-health.prober';
import { LocalModelsService } from './local-models.service';
import { ModelCatalog } from './model-catalog';
import { ModelRouter } from './model-router';
import { ProviderCallRecorder } from './provider-call.recorder';
import { ProviderInsightsService } from './provider-insights.service';
import { ProviderPresetsController } from './provider-presets.controller';
import { ProviderQuotas } from './provider-quotas';
import { ProviderRegistry } from './provider-registry';
import { ProviderUsage } from './provider-usage';
import { ProvidersController } from './providers.controller';
import { ProvidersRepository } from './providers.repository';
import { ProvidersService } from './providers.service';
import { AuditModule } from '../audit';
import { SettingsModule } from '../settings';
import { PROVIDERS_SETTINGS } from './providers.settings';

/**
 * Model providers: CRUD with encrypted secrets, presets, guarded discovery, local models, health,
 * the live registry (hot reload) and the model router with quota degradation.
 * The fixed sub-routes (presets, discovery-policy) are registered before `/providers/:name`.
 */
@Module({
  imports: [AuditModule, SettingsModule.forFeature(PROVIDERS_SETTINGS)],
  controllers: [ProviderPresetsController, DiscoveryPolicyController, ProvidersController],
  providers: [
    DiscoveryPolicyService,
    DiscoveryService,
    LocalHealthProber,
    LocalModelsService,
    ModelCatalog,
    ModelRouter,
    ProviderCallRecorder,
    ProviderInsightsService,
    ProviderQuotas,
    ProviderRegistry,
    ProviderUsage,
    ProvidersRepository,
    ProvidersService,
  ],
  exports: [DiscoveryPolicyService, ModelCatalog, ModelRouter, ProviderRegistry, ProviderUsage],
})
export class ProvidersModule {}
