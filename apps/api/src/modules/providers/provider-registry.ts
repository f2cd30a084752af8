import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel, type LlmDriver } from '@app/domain';
import type { ProviderEntity } from '@app/persistence';
import {
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ReinitialisationHooks,
  ReinitialisationOrder,
  SecretCipher,
} from '@app/platform';

import { AddressCheckedDriver } from './discovery/address-checked-driver';
import { DiscoveryPolicyService } from './discovery/discovery-policy.service';
import { GuardedFetcher } from './discovery/guarded-fetch';
import { CALL_DEFAULTS, createDriver } from './drivers/driver-factory';
import { ProviderCallRecorder } from './provider-call.recorder';
import { ProviderQuotas } from './provider-quotas';
import { type ProviderRecord, sealSecrets, toRecord } from './provider-record';
import { ProvidersRepository } from './providers.repository';
import { RecordingDriver } from './recording-driver';

const START_RETRY_MS = 5_000;

/** A provider ready for calls: its configuration and a driver that records every call. */
export interface RegisteredProvider {
  readonly record: ProviderRecord;
  readonly driver: LlmDriver;
}

/**
 * The live set of providers the runtime calls. A reload builds a complete new map and swaps it in
 * one assignment: calls already under way keep the driver they started with, new calls get the new
 * one, so configuration changes never interrupt traffic. Every mutation reloads it locally; other
 * replicas reload when the announcement reaches them over the event bus.
 */
@Injectable()
export class ProviderRegistry implements OnModuleInit, OnModuleDestroy {
  private providers: ReadonlyMap<string, RegisteredProvider> = new Map();
  private generationNo = 0;
  private running: Promise<void> | null = null;
  private rerun = false;
  private readonly log: Logger;
  private readonly cleanups: (() => void)[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  /**
   * Every call the runtime makes (agents' model calls, background health probes) passes the same
   * address checks and allowlist as discovery and test calls: a provider's base URL pointed at an
   * internal address is refused unless an operator allowlisted it.
   */
  private readonly transport: GuardedFetcher;

  constructor(
    private readonly repository: ProvidersRepository,
    private readonly cipher: SecretCipher,
    private readonly recorder: ProviderCallRecorder,
    private readonly quotas: ProviderQuotas,
    private readonly hooks: ReinitialisationHooks,
    private readonly bus: EventBus,
    policy: DiscoveryPolicyService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('providers.registry');
    this.transport = new GuardedFetcher(() => policy.policy());
  }

  async onModuleInit(): Promise<void> {
    this.cleanups.push(
      this.hooks.register({
        name: 'providers.reload',
        order: ReinitialisationOrder.Providers,
        run: () => this.reload(),
      }),
      this.bus.subscribe((event) => {
        // Any change another replica announces, including kinds this build does not know yet.
        if (event.origin === 'remote' && event.channel === Channel.Providers) {
          this.reload().catch((error: unknown) => this.log.error({ err: error }, 'providers.registry.reload_failed'));
        }
      }),
    );
    await this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.cleanups.splice(0).forEach((cleanup) => cleanup());
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    await this.transport.close();
  }

  /**
   * First load. Startup never fails on it: with persistence down the registry stays empty (provider
   * endpoints answer 503 meanwhile) and the load is retried until it succeeds.
   */
  private async start(): Promise<void> {
    try {
      await this.rotateSecrets();
      await this.reload();
      await this.restoreQuotaUsage();
    } catch (error) {
      this.log.warn({ err: error, retry_in_ms: START_RETRY_MS }, 'providers.registry.load_deferred');
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        void this.start();
      }, START_RETRY_MS);
      this.retryTimer.unref();
    }
  }

  get generation(): number {
    return this.generationNo;
  }

  get(name: string): RegisteredProvider | undefined {
    return this.providers.get(name);
  }

  list(): RegisteredProvider[] {
    return [...this.providers.values()];
  }

  /**
   * Rebuilds the registry from the database. Concurrent requests coalesce: a reload asked for while
   * one runs triggers exactly one more, so the last committed state always wins.
   */
  reload(): Promise<void> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.rerun = false;
          await this.build();
        } while (this.rerun);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async build(): Promise<void> {
    const rows = await this.repository.all();
    const next = new Map<string, RegisteredProvider>();
    for (const row of rows) {
      const registered = this.register(row);
      if (registered) {
        next.set(row.name, registered);
      }
    }
    for (const name of this.providers.keys()) {
      if (!next.has(name)) {
        this.quotas.remove(name);
      }
    }
    this.providers = next;
    this.generationNo += 1;
    this.log.info({ providers: [...next.keys()], generation: this.generationNo }, 'providers.registry.reloaded');
  }

  private register(row: ProviderEntity): RegisteredProvider | null {
    let record: ProviderRecord;
    try {
      record = toRecord(row, this.cipher);
    } catch (error) {
      // One unreadable row (e.g. a key that left the ring) must not take every provider down.
      this.log.error({ err: error, provider: row.name }, 'providers.registry.provider_unreadable');
      return null;
    }
    this.quotas.configure(record.name, record.quota);
    const driver = new AddressCheckedDriver(
      createDriver(record, { ...CALL_DEFAULTS, baseFetch: this.transport.fetch }),
      async () => {
        await this.transport.assertAllowed(record.endpoint);
        if (record.authType === 'oauth' && record.oauth.tokenUrl) {
          await this.transport.assertAllowed(record.oauth.tokenUrl);
        }
      },
    );
    return { record, driver: new RecordingDriver(driver, record.name, record.models, this.recorder) };
  }

  /** Re-seals secrets written under an older key with the current one (key rotation). */
  private async rotateSecrets(): Promise<void> {
    for (const row of await this.repository.all()) {
      if (!row.secrets || !this.cipher.needsRotation(row.secretsKeyId)) {
        continue;
      }
      try {
        const plain = JSON.parse(this.cipher.open(row.secrets)) as Record<string, string>;
        const sealed = sealSecrets(plain, this.cipher);
        await this.repository.update({ ...row, ...sealed, version: row.version + 1 }, row.version);
        this.log.info({ provider: row.name, key_id: sealed.secretsKeyId }, 'providers.secrets.rotated');
      } catch (error) {
        this.log.error({ err: error, provider: row.name }, 'providers.secrets.rotation_failed');
      }
    }
  }

  /** Quota windows count from the recorded calls of the last day, so a restart does not reset them. */
  private async restoreQuotaUsage(): Promise<void> {
    const since = new Date(Date.now() - 24 * 3600 * 1000);
    const calls = await this.repository.callsSince(since);
    calls.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
    for (const call of calls) {
      if (this.providers.has(call.provider)) {
        this.quotas.record(call.provider, call.inputTokens + call.outputTokens, call.startedAt.getTime());
      }
    }
  }
}
