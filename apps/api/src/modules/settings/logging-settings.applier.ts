import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  LOGGING_RUNTIME,
  type LoggingRuntime,
  type LogLevelName,
  type ValidatedSinkSettings,
  validateSinkSettings,
} from '@app/platform';

import { SettingsSnapshot } from './settings-snapshot';

/** The four runtime-editable observability settings; a change of any of them rebuilds logging. */
export const LIVE_LOGGING_KEYS = ['root_log_level', 'enable_correlation', 'sink_overrides', 'custom_sinks'] as const;

/**
 * Keeps this replica's logging in step with the observability settings: whenever one of the four
 * live ones changes (a write here, or a change announced by another replica), the logger's level,
 * correlation and sinks are rebuilt without a restart. Changes arriving together are applied once.
 */
@Injectable()
export class LoggingSettingsApplier implements OnModuleInit, OnModuleDestroy {
  private readonly log: Logger;
  private readonly stops: Array<() => void> = [];
  private scheduled = false;
  private applied: Promise<void> = Promise.resolve();

  constructor(
    private readonly snapshot: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) private readonly logging: LoggingRuntime,
  ) {
    this.log = logging.forName('observability');
  }

  onModuleInit(): void {
    for (const key of LIVE_LOGGING_KEYS) {
      this.stops.push(this.snapshot.watch('observability', key, () => this.schedule()));
    }
  }

  onModuleDestroy(): void {
    this.stops.splice(0).forEach((stop) => stop());
  }

  /** Resolves once every change heard so far is applied (tests and benches wait on it). */
  settled(): Promise<void> {
    return this.applied;
  }

  private schedule(): void {
    if (this.scheduled) {
      return;
    }
    this.scheduled = true;
    this.applied = new Promise<void>((resolve) => {
      queueMicrotask(() => {
        this.scheduled = false;
        this.apply().then(resolve, resolve);
      });
    });
  }

  private async apply(): Promise<void> {
    const rootLevel = this.snapshot.value<LogLevelName>('observability', 'root_log_level');
    const enableCorrelation = this.snapshot.value<boolean>('observability', 'enable_correlation');
    const sinks = this.sinkSettings();
    try {
      await this.logging.reconfigure({ rootLevel, enableCorrelation, ...sinks });
      this.log.info(
        {
          root_log_level: rootLevel,
          enable_correlation: enableCorrelation,
          custom_sinks: sinks.customSinks.length,
          overridden_sinks: Object.keys(sinks.sinkOverrides),
        },
        'observability.logging.reconfigured',
      );
    } catch (error) {
      this.log.error({ err: error }, 'observability.logging.reconfigure_failed');
    }
  }

  /** The sink settings as validated; a pair that breaks a rule (never stored through the API) falls back to the defaults. */
  private sinkSettings(): ValidatedSinkSettings {
    try {
      return validateSinkSettings(
        this.snapshot.value('observability', 'sink_overrides'),
        this.snapshot.value('observability', 'custom_sinks'),
      );
    } catch (error) {
      this.log.error({ err: error }, 'observability.sinks.invalid');
      return { sinkOverrides: {}, customSinks: [] };
    }
  }
}
