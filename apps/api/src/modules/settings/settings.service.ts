import { createHash } from 'node:crypto';

import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Logger } from 'pino';

import {
  Channel,
  ConflictError,
  ErrorCode,
  resolveSetting,
  type SettingDefinition,
  settingId,
  settingValueProblem,
  validateSettingValue,
} from '@app/domain';
import {
  type ActorContext,
  announce,
  DistributedLock,
  EventBus,
  ifMatchSatisfied,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ReplicaLink,
  SecretCipher,
  type SettingsBackend,
  SettingsStore,
  subscribeTo,
} from '@app/platform';

import { AuditTrail } from '../audit';
import type { SettingDefinitionDto, SettingEntryDto } from './dto/setting.dto';
import { type ResolvedEntry, toDefinitionDto, toEntryDto } from './settings.mapper';
import { SettingsRepository, type StoredSetting } from './settings.repository';
import { SettingsSnapshot } from './settings-snapshot';
import { SettingValueChecks } from './setting-value-checks';

const RELOAD_RETRY_MS = 5000;

/** A written entry and whether it waits for a restart. */
export interface WrittenSetting {
  entry: SettingEntryDto;
  etag: string;
}

/**
 * The settings use cases: resolution (database, environment, YAML, default), validated and
 * encrypted writes, and propagation: a committed change updates this replica's snapshot and is
 * announced on the internal settings channel, which the other replicas apply from the database.
 */
@Injectable()
export class SettingsService implements SettingsBackend, OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log: Logger;
  private readonly unsubscribe: Array<() => void> = [];
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repository: SettingsRepository,
    private readonly snapshot: SettingsSnapshot,
    private readonly checks: SettingValueChecks,
    private readonly cipher: SecretCipher,
    private readonly events: EventBus,
    private readonly link: ReplicaLink,
    private readonly lock: DistributedLock,
    private readonly store: SettingsStore,
    private readonly trail: AuditTrail,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('settings');
  }

  onModuleInit(): void {
    this.store.attach(this);
    this.unsubscribe.push(
      subscribeTo(this.events, Channel.Settings, (event) => {
        if (event.origin === 'remote' && event.event_type === 'setting.changed') {
          void this.reload(event.payload.namespace, event.payload.key);
        }
      }),
      this.link.onRelinked(() => void this.reloadAll()),
    );
  }

  /** Stored values apply before the server takes requests; a database still connecting is retried. */
  async onApplicationBootstrap(): Promise<void> {
    await this.reloadAll();
  }

  onApplicationShutdown(): void {
    this.unsubscribe.splice(0).forEach((stop) => stop());
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
    }
  }

  schema(): SettingDefinitionDto[] {
    return this.snapshot.definitions.all().map(toDefinitionDto);
  }

  schemaOf(namespace: string): SettingDefinitionDto[] {
    return this.snapshot.definitions.namespace(namespace).map(toDefinitionDto);
  }

  async list(): Promise<SettingEntryDto[]> {
    const rows = byId(await this.repository.all());
    return this.snapshot.definitions.all().map((d) => toEntryDto(this.resolve(d, rows.get(idOf(d)) ?? null)));
  }

  async listNamespace(namespace: string): Promise<SettingEntryDto[]> {
    const definitions = this.snapshot.definitions.namespace(namespace);
    const rows = byId(await this.repository.inNamespace(namespace));
    return definitions.map((d) => toEntryDto(this.resolve(d, rows.get(idOf(d)) ?? null)));
  }

  async entry(namespace: string, key: string): Promise<WrittenSetting> {
    const definition = this.snapshot.definitions.get(namespace, key);
    const resolved = this.resolve(definition, await this.repository.find(namespace, key));
    return { entry: toEntryDto(resolved), etag: resolved.etag };
  }

  /**
   * Validates and stores a value. With `ifMatch`, the value must not have changed since it was read
   * (409, 4002). A restart-required value is stored only: it runs after the next start.
   */
  async put(actor: ActorContext | null, namespace: string, key: string, raw: string, ifMatch?: string) {
    const definition = this.snapshot.definitions.get(namespace, key);
    const text = validateSettingValue(definition, raw);
    this.checks.check(definition, text);
    const row = await this.lock.runExclusive(`settings.${idOf(definition)}`, async () => {
      this.checkVersion(definition, await this.repository.find(namespace, key), ifMatch);
      const stored = definition.sensitive ? this.cipher.seal(text).envelope : text;
      return this.repository.upsert(namespace, key, stored);
    });
    await this.committed(definition, actor, 'settings.value.updated', text);
    const resolved = this.resolve(definition, row);
    return { entry: toEntryDto(resolved), etag: resolved.etag };
  }

  /** Removes the stored value, so the next tier (environment, YAML, default) applies. */
  async remove(actor: ActorContext | null, namespace: string, key: string, ifMatch?: string): Promise<void> {
    const definition = this.snapshot.definitions.get(namespace, key);
    const removed = await this.lock.runExclusive(`settings.${idOf(definition)}`, async () => {
      this.checkVersion(definition, await this.repository.find(namespace, key), ifMatch);
      return this.repository.remove(namespace, key);
    });
    if (removed) {
      await this.committed(definition, actor, 'settings.value.reset', null);
    }
  }

  // SettingsBackend: the platform's typed store reads and writes through the registry.

  async read(namespace: string, key: string): Promise<string | null> {
    const definition = this.snapshot.definitions.get(namespace, key);
    return this.resolve(definition, await this.repository.find(namespace, key)).text;
  }

  async exists(namespace: string, key: string): Promise<boolean> {
    return (await this.repository.find(namespace, key)) !== null;
  }

  async write(namespace: string, key: string, text: string): Promise<void> {
    await this.put(null, namespace, key, text);
  }

  /** Re-reads every stored value (startup, and after the link to the other replicas came back). */
  async reloadAll(): Promise<void> {
    let rows: StoredSetting[];
    try {
      rows = await this.repository.all();
    } catch (error) {
      this.log.warn({ err: error, retry_in_ms: RELOAD_RETRY_MS }, 'settings.snapshot.load_failed');
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = null;
        void this.reloadAll();
      }, RELOAD_RETRY_MS).unref();
      return;
    }
    const stored = byId(rows);
    for (const definition of this.snapshot.definitions.all()) {
      this.snapshot.applyStored(definition, this.storedText(definition, stored.get(idOf(definition)) ?? null));
    }
    this.snapshot.markLoaded();
    this.log.info({ stored: rows.length }, 'settings.snapshot.loaded');
  }

  /** Applies one setting's stored value as announced by another replica. */
  private async reload(namespace: string, key: string): Promise<void> {
    const definition = this.snapshot.definitions.find(namespace, key);
    if (!definition || definition.restartRequired) {
      return;
    }
    try {
      this.snapshot.applyStored(definition, this.storedText(definition, await this.repository.find(namespace, key)));
    } catch (error) {
      this.log.error({ setting: idOf(definition), err: error }, 'settings.snapshot.reload_failed');
    }
  }

  /** After the commit: this replica applies the value, then the others hear of it (not restart-required ones). */
  private async committed(
    definition: SettingDefinition,
    actor: ActorContext | null,
    event: string,
    text: string | null,
  ): Promise<void> {
    const fields = {
      setting: idOf(definition),
      actor: actor?.username ?? 'system',
      restart_required: definition.restartRequired,
      // Never the value of a sensitive setting, in any form.
      ...(definition.sensitive ? {} : { value: text }),
    };
    this.log.info(fields, event);
    await this.trail.record({
      actor: fields.actor,
      action: event === 'settings.value.reset' ? 'setting.reset' : 'setting.changed',
      target: `setting:${fields.setting}`,
      outcome: 'success',
      details: {
        restart_required: definition.restartRequired,
        ...(definition.sensitive ? { sensitive: true } : { value: text }),
      },
    });
    if (definition.restartRequired) {
      return;
    }
    this.snapshot.applyStored(definition, text);
    await announce(this.events, this.log, {
      channel: Channel.Settings,
      event_type: 'setting.changed',
      payload: { namespace: definition.namespace, key: definition.key },
    });
  }

  private checkVersion(definition: SettingDefinition, row: StoredSetting | null, ifMatch: string | undefined): void {
    if (ifMatch === undefined || ifMatch.trim() === '') {
      return;
    }
    const current = this.resolve(definition, row).etag;
    if (!ifMatchSatisfied(ifMatch, current)) {
      throw new ConflictError(
        `Setting ${idOf(definition)} changed since it was read (If-Match ${ifMatch}, current ${current})`,
        ErrorCode.VersionConflict,
      );
    }
  }

  /** The plain stored text, or null when none is stored or it no longer passes the definition's rules. */
  private storedText(definition: SettingDefinition, row: StoredSetting | null): string | null {
    if (!row) {
      return null;
    }
    const text = definition.sensitive && row.value.startsWith('v1:') ? this.cipher.open(row.value) : row.value;
    const problem = settingValueProblem(definition, text);
    if (problem) {
      this.log.warn({ setting: idOf(definition), rule: problem.rule }, 'settings.stored.invalid');
      return null;
    }
    return text;
  }

  private resolve(definition: SettingDefinition, row: StoredSetting | null): ResolvedEntry {
    const resolved = resolveSetting(definition, this.storedText(definition, row), this.snapshot.bootSources);
    const updatedAt = resolved.source === 'db' && row ? new Date(row.updatedAt) : null;
    // A sensitive value is never hashed: its tag follows the stored envelope (or only the tier).
    const versioned = definition.sensitive ? (resolved.source === 'db' ? row?.value : '') : resolved.value;
    const etag = `"${createHash('sha256')
      .update(`${resolved.source}|${versioned ?? ''}|${updatedAt?.toISOString() ?? ''}`)
      .digest('hex')
      .slice(0, 20)}"`;
    return {
      definition,
      text: resolved.value,
      source: resolved.source,
      updatedAt,
      pendingRestart: definition.restartRequired && resolved.value !== this.snapshot.text(definition),
      etag,
    };
  }
}

function idOf(definition: SettingDefinition): string {
  return settingId(definition.namespace, definition.key);
}

function byId(rows: StoredSetting[]): Map<string, StoredSetting> {
  return new Map(rows.map((row) => [settingId(row.namespace, row.key), row]));
}
