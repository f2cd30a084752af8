import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { defaultDegradationConfig, type DiscoveredModel, type ProviderModel, type ProviderPreset } from '@app/domain';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import type { DiscoverModelsResultDto } from '../dto/discovery.dto';
import type { ProbePresetResultDto } from '../dto/preset.dto';
import { createDriver } from '../drivers/driver-factory';
import { ProviderCallRecorder } from '../provider-call.recorder';
import { DEFAULT_MAX_CONTEXT, type ProviderRecord } from '../provider-record';
import { ProvidersService } from '../providers.service';
import { RecordingDriver } from '../recording-driver';
import { DiscoveryPolicyService } from './discovery-policy.service';
import { GuardedFetcher } from './guarded-fetch';

/** Per-candidate limit of probe-preset (the interface fixes it at 5 seconds). */
export const PROBE_TIMEOUT_MS = 5_000;
export const DISCOVERY_TIMEOUT_MS = 15_000;

/** A preset's identity as a throwaway provider record, for probing its candidate URLs. */
function presetRecord(preset: ProviderPreset, endpoint: string): ProviderRecord {
  const now = new Date();
  return {
    name: preset.name,
    preset: preset.name,
    gatewayProviderSetting: preset.gateway_provider,
    gatewayProvider: preset.gateway_provider,
    family: null,
    authType: 'none',
    baseUrl: endpoint,
    endpoint,
    protocol: preset.driver,
    models: [],
    degradation: defaultDegradationConfig(),
    quota: {},
    secrets: {},
    oauth: { tokenUrl: null, clientId: null, scope: null },
    customHeaderName: null,
    tosAcceptedAt: null,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/** Existing entries keep their prices and settings; newly found ids are added with zero prices. */
export function mergeDiscovered(
  existing: readonly ProviderModel[],
  found: readonly DiscoveredModel[],
): ProviderModel[] {
  const known = new Set(existing.flatMap((m) => (m.alias ? [m.id, m.alias] : [m.id])));
  const added = found
    .filter((m) => !known.has(m.id))
    .map((m) => ({
      id: m.id,
      alias: null,
      costPer1kInput: 0,
      costPer1kOutput: 0,
      maxContext: m.maxContext ?? DEFAULT_MAX_CONTEXT,
      estimatedLatencyMs: null,
      localParams: null,
    }));
  return [...existing, ...added];
}

/**
 * Model discovery and preset probing. Both reach URLs users typed, so both go through the guarded
 * fetch: private, loopback, link-local and metadata addresses are refused unless allowlisted.
 */
@Injectable()
export class DiscoveryService {
  private readonly log: Logger;

  constructor(
    private readonly providers: ProvidersService,
    private readonly policy: DiscoveryPolicyService,
    private readonly recorder: ProviderCallRecorder,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('providers.discovery');
  }

  async discover(actor: ActorContext, name: string, presetHint?: string): Promise<DiscoverModelsResultDto> {
    const record = await this.providers.record(name);
    const protocol = presetHint ? this.providers.preset(presetHint).driver : record.protocol;
    const fetcher = new GuardedFetcher(await this.policy.policy());
    let found: DiscoveredModel[];
    try {
      const driver = new RecordingDriver(
        createDriver(
          { ...record, protocol },
          { baseFetch: fetcher.fetch, maxRetries: 0, timeoutMs: DISCOVERY_TIMEOUT_MS },
        ),
        record.name,
        record.models,
        this.recorder,
        'list_models',
      );
      found = await driver.listModels();
    } finally {
      await fetcher.close();
    }
    const merged = mergeDiscovered(record.models, found);
    if (merged.length !== record.models.length) {
      await this.providers.replaceModels(actor, name, merged, 'discovery');
    }
    this.log.info(
      { provider: name, discovered: found.length, added: merged.length - record.models.length },
      'providers.discovery.completed',
    );
    return { discovered_models: found.map((m) => m.id), provider_name: name };
  }

  probePreset(presetName: string): Promise<ProbePresetResultDto> {
    const preset = this.providers.preset(presetName);
    return this.probeCandidates(preset, preset.candidate_urls);
  }

  /** Tries each URL in order with the preset's protocol, 5 s each; the first that lists models wins. */
  async probeCandidates(preset: ProviderPreset, urls: readonly string[]): Promise<ProbePresetResultDto> {
    if (urls.length === 0) {
      return { url: null, model_count: 0, candidates_tried: 0 };
    }
    const policy = await this.policy.policy();
    let tried = 0;
    for (const url of urls) {
      tried += 1;
      const fetcher = new GuardedFetcher(policy);
      try {
        const driver = createDriver(presetRecord(preset, url), {
          baseFetch: fetcher.fetch,
          maxRetries: 0,
          timeoutMs: PROBE_TIMEOUT_MS,
        });
        const models = await driver.listModels(AbortSignal.timeout(PROBE_TIMEOUT_MS));
        this.log.info({ preset: preset.name, url, models: models.length }, 'providers.probe.reachable');
        return { url, model_count: models.length, candidates_tried: tried };
      } catch (error) {
        this.log.info(
          { preset: preset.name, url, reason: error instanceof Error ? error.message : String(error) },
          'providers.probe.unreachable',
        );
      } finally {
        await fetcher.close();
      }
    }
    return { url: null, model_count: 0, candidates_tried: tried };
  }

  /** Auto-discovery after creating a no-auth provider without models; a failure leaves it as created. */
  async discoverQuietly(actor: ActorContext, name: string): Promise<void> {
    try {
      await this.discover(actor, name);
    } catch (error) {
      this.log.warn(
        {
          provider: name,
          reason: error instanceof Error ? error.message : String(error),
        },
        'providers.discovery.auto_failed',
      );
    }
  }
}
