import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  DEFAULT_CHAIN,
  DEFAULT_TIERS,
  parseChain,
  parseTiers,
  type RejectionBehaviour,
  type TimeoutPolicy,
  type TimeoutPolicyConfig,
} from '@app/domain';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { SettingsSnapshot } from '../settings';

const NS = 'security';

/** The running approval settings, read from the settings snapshot (kept current on every replica). */
@Injectable()
export class ApprovalPolicy {
  private readonly log: Logger;

  constructor(
    private readonly settings: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('approvals.policy');
  }

  /** The timeout configuration now. A stored tier or chain of the wrong shape falls back to its default. */
  timeouts(): TimeoutPolicyConfig {
    return {
      policy: this.settings.value<string>(NS, 'approval_timeout_policy') as TimeoutPolicy,
      denyTimeoutMinutes: this.settings.value<number>(NS, 'approval_timeout_minutes'),
      tiers: this.parsed('approval_tiers', parseTiers, DEFAULT_TIERS),
      chain: this.parsed('approval_escalation_chain', parseChain, DEFAULT_CHAIN),
    };
  }

  /** What a refusal does to a parked run. */
  rejection(): RejectionBehaviour {
    return this.settings.value<string>(NS, 'approval_rejection') === 'end_run' ? 'end_run' : 'continue';
  }

  /** Milliseconds between two timeout evaluations. */
  checkIntervalMs(): number {
    return Math.max(100, this.settings.value<number>(NS, 'approval_check_seconds') * 1000);
  }

  private parsed<T>(key: string, parse: (raw: unknown) => T, fallback: T): T {
    try {
      return parse(this.settings.value(NS, key));
    } catch (error) {
      this.log.error({ err: error, setting: `${NS}.${key}` }, 'approvals.policy.invalid');
      return fallback;
    }
  }
}
