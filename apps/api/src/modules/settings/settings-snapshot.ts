import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  parseSettingValue,
  resolveBootSetting,
  resolveSetting,
  type SettingBootSources,
  type SettingDefinition,
  SettingDefinitions,
  settingId,
  type SettingSource,
  type SettingValue,
} from '@app/domain';
import { APP_CONFIG, type AppConfig, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

/** The value a replica runs with: its text, parsed form and tier. */
interface RunningValue {
  readonly definition: SettingDefinition;
  readonly text: string | null;
  readonly value: SettingValue;
  readonly source: SettingSource;
}

/** Called with the new parsed value when a running value changes. */
export type SettingListener = (value: SettingValue) => void;

/**
 * The definitions every module declared and the values this replica runs with. Hot paths read
 * here (one Map lookup, never the database); the settings service keeps it current from its own
 * writes and the bus. A restart-required setting keeps the value it started with.
 */
@Injectable()
export class SettingsSnapshot {
  readonly definitions = new SettingDefinitions();
  private readonly running = new Map<string, RunningValue>();
  private readonly listeners = new Map<string, Set<SettingListener>>();
  private readonly sources: SettingBootSources;
  private readonly log: Logger;
  private loaded = false;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(LOGGING_RUNTIME) logging: LoggingRuntime) {
    this.sources = config.settingSources;
    this.log = logging.forName('settings');
  }

  /** Declares a module's definitions; their values start from the environment, YAML or default. */
  declare(definitions: readonly SettingDefinition[]): void {
    this.definitions.declare(definitions);
    for (const definition of definitions) {
      const resolved = resolveBootSetting(definition, this.sources);
      for (const problem of resolved.problems) {
        this.log.warn({ setting: settingId(definition.namespace, definition.key), problem }, 'settings.source.invalid');
      }
      this.set(definition, resolved.value, resolved.source, false);
    }
  }

  /** The parsed running value (hot path). @throws TypeError for an undeclared setting: a programming error. */
  value<T extends SettingValue>(namespace: string, key: string): T {
    const running = this.running.get(`${namespace}.${key}`);
    if (running === undefined) {
      throw new TypeError(`setting ${namespace}.${key} is not declared`);
    }
    return running.value as T;
  }

  /** The running text of a setting (plain, even when sensitive: callers must not send it anywhere). */
  text(definition: SettingDefinition): string | null {
    return this.running.get(settingId(definition.namespace, definition.key))?.text ?? null;
  }

  /** The boot tiers, for resolving a setting below its stored value. */
  get bootSources(): SettingBootSources {
    return this.sources;
  }

  /**
   * Applies a stored value (null: none stored) as the running one. Restart-required settings take
   * it only on the first load after startup. Listeners hear of real changes only.
   */
  applyStored(definition: SettingDefinition, stored: string | null): void {
    if (definition.restartRequired && this.loaded) {
      return;
    }
    const resolved = resolveSetting(definition, stored, this.sources);
    this.set(definition, resolved.value, resolved.source, true);
  }

  /** Marks the first load from the database done: restart-required values are fixed from now on. */
  markLoaded(): void {
    this.loaded = true;
  }

  /** Registers a listener of one setting's running value; the returned function unregisters it. */
  watch(namespace: string, key: string, listener: SettingListener): () => void {
    const id = settingId(namespace, key);
    let set = this.listeners.get(id);
    if (!set) {
      set = new Set();
      this.listeners.set(id, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  private set(definition: SettingDefinition, text: string | null, source: SettingSource, notify: boolean): void {
    const id = settingId(definition.namespace, definition.key);
    const previous = this.running.get(id);
    this.running.set(id, { definition, text, value: parseSettingValue(definition, text), source });
    if (!notify || previous?.text === text) {
      return;
    }
    const value = this.value(definition.namespace, definition.key);
    for (const listener of [...(this.listeners.get(id) ?? [])]) {
      try {
        listener(value);
      } catch (error) {
        this.log.error({ setting: id, err: error }, 'settings.listener.failed');
      }
    }
  }
}
