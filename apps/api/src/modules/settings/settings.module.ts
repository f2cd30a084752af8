import { type DynamicModule, Global, Module } from '@nestjs/common';

import { type SettingDefinition, settingId } from '@app/domain';
import { API_SERVER_SETTINGS, OBSERVABILITY_SETTINGS } from '@app/platform';

import { AuditModule } from '../audit';
import { LoggingSettingsApplier } from './logging-settings.applier';
import { SecurityConfigController } from './security-config.controller';
import { SecurityConfigService } from './security-config.service';
import { SettingValueChecks } from './setting-value-checks';
import { SettingsController } from './settings.controller';
import { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';
import { SettingsSnapshot } from './settings-snapshot';
import { SinksController } from './sinks.controller';

/** A provider that declares definitions on the snapshot when the application is built. */
function declaring(definitions: readonly SettingDefinition[]) {
  return {
    // A token per set of keys: Nest tells dynamic modules apart by their metadata.
    provide: `settings.declared:${definitions.map((d) => settingId(d.namespace, d.key)).join(',')}`,
    inject: [SettingsSnapshot],
    useFactory: (snapshot: SettingsSnapshot): true => {
      snapshot.declare(definitions);
      return true;
    },
  };
}

/** Where `SettingsModule.forFeature` declarations live. */
@Module({})
export class SettingsFeatureModule {}

/**
 * The runtime settings registry: storage, resolution, validation, the API and propagation. Global,
 * so the platform's typed `SettingsStore` works through it everywhere; owning modules declare their
 * definitions with `forFeature`. The platform's own namespaces (server, observability) and those with
 * no module yet are declared here.
 */
@Global()
@Module({
  imports: [AuditModule],
  // The sinks and security document routes first: they must not be read as `/{namespace}/{key}`.
  controllers: [SinksController, SecurityConfigController, SettingsController],
  providers: [
    declaring([...API_SERVER_SETTINGS, ...OBSERVABILITY_SETTINGS]),
    LoggingSettingsApplier,
    SecurityConfigService,
    SettingValueChecks,
    SettingsRepository,
    SettingsService,
    SettingsSnapshot,
  ],
  exports: [LoggingSettingsApplier, SettingsSnapshot],
})
export class SettingsModule {
  /** Declares an owning module's definitions (import it in that module). */
  static forFeature(definitions: readonly SettingDefinition[]): DynamicModule {
    return { module: SettingsFeatureModule, providers: [declaring(definitions)] };
  }
}
