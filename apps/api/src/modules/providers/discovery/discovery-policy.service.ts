import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  ErrorCode,
  ForbiddenError,
  hostPortOf,
  Permission,
  roleHasPermission,
  normaliseHostPort,
  PROVIDER_PRESETS,
  type SettingValue,
  ValidationError,
} from '@app/domain';
import {
  type ActorContext,
  APP_CONFIG,
  type AppConfig,
  jsonSetting,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  SettingsStore,
} from '@app/platform';

import { AuditTrail } from '../../audit';
import { SettingsSnapshot } from '../../settings';

import { type AddressPolicy, addressRefusal } from './guarded-fetch';

/** The operator's allowlist; unset means the defaults. Non-string entries of a stored list are dropped. */
export const DISCOVERY_ALLOWLIST = jsonSetting('providers', 'discovery_allowlist', readAllowlist);

function readAllowlist(parsed: unknown): string[] {
  return Array.isArray(parsed) ? parsed.filter((e): e is string => typeof e === 'string') : [];
}

export interface DiscoveryPolicyView {
  host_port_allowlist: string[];
  block_private_ips: boolean;
  entry_count: number;
}

export const MAX_ALLOWLIST_ENTRIES = 200;

/**
 * The allowlist starts with the host:port of every local preset's default and candidate URLs (a
 * `localhost` one also as 127.0.0.1 and [::1]), so a local Ollama, LM Studio or vLLM works out of the box; operators see those entries in
 * the policy and may remove them. Any other private address needs an explicit entry.
 */
export function defaultAllowlist(): string[] {
  const entries = new Set<string>();
  for (const preset of PROVIDER_PRESETS.filter((p) => p.local)) {
    for (const url of [preset.default_base_url, ...preset.candidate_urls]) {
      if (url) {
        const parsed = new URL(url);
        entries.add(hostPortOf(parsed));
        // "localhost" and its loopback literals are the same server: a URL naming either is trusted.
        if (parsed.hostname === 'localhost') {
          for (const loopback of ['127.0.0.1', '[::1]']) {
            parsed.hostname = loopback;
            entries.add(hostPortOf(parsed));
          }
        }
      }
    }
  }
  return [...entries].sort();
}

@Injectable()
export class DiscoveryPolicyService {
  private readonly audit: Logger;
  /** The policy built from the running allowlist value it was built from (rebuilt when that changes). */
  private running: { from: unknown; policy: AddressPolicy } | null = null;

  constructor(
    private readonly settings: SettingsStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
    private readonly snapshot: SettingsSnapshot,
    private readonly trail: AuditTrail,
  ) {
    this.audit = logging.forName('security.audit');
  }

  async entries(): Promise<string[]> {
    return (await this.settings.get(DISCOVERY_ALLOWLIST)) ?? defaultAllowlist();
  }

  async view(): Promise<DiscoveryPolicyView> {
    const entries = await this.entries();
    return {
      host_port_allowlist: entries,
      block_private_ips: this.config.providers.blockPrivateIps,
      entry_count: entries.length,
    };
  }

  /**
   * The policy every outbound provider call is checked against (each model call reads it): from the
   * running settings, one Map lookup, never the database. This replica's own changes apply before
   * add and remove answer; another replica's, when the settings bus brings them.
   */
  policy(): Promise<AddressPolicy> {
    const stored = this.snapshot.value<SettingValue>(DISCOVERY_ALLOWLIST.namespace, DISCOVERY_ALLOWLIST.key);
    let running = this.running;
    if (running === null || running.from !== stored) {
      const entries = stored === null ? defaultAllowlist() : readAllowlist(stored);
      running = {
        from: stored,
        policy: { blockPrivateIps: this.config.providers.blockPrivateIps, allowlist: new Set(entries) },
      };
      this.running = running;
    }
    return Promise.resolve(running.policy);
  }

  /**
   * Refuses a provider address every call would be refused at, when the provider is created or its
   * address changed, instead of at its first task run: 400 (2014) naming the host:port and the call
   * that trusts it. With `trust` (an explicit request field) a person who may manage the allowlist
   * adds the refused host:port in the same request, audited like the allowlist call itself.
   */
  async admit(actor: ActorContext, targets: readonly string[], trust: boolean): Promise<void> {
    const policy = await this.policy();
    for (const target of targets) {
      const refusal = await addressRefusal(target, policy);
      if (refusal === null) {
        continue;
      }
      if (!trust) {
        throw refusal;
      }
      if (!roleHasPermission(actor.role, Permission.Administer)) {
        throw new ForbiddenError(
          `trust_address adds ${hostPortOf(new URL(target))} to the discovery allowlist, which needs the CEO role`,
        );
      }
      await this.add(actor, hostPortOf(new URL(target)));
    }
  }

  async add(actor: ActorContext, raw: string): Promise<DiscoveryPolicyView> {
    const entry = normaliseHostPort(raw);
    const entries = await this.entries();
    if (!entries.includes(entry)) {
      if (entries.length >= MAX_ALLOWLIST_ENTRIES) {
        throw new ValidationError(
          `the allowlist holds at most ${MAX_ALLOWLIST_ENTRIES} entries`,
          ErrorCode.DiscoveryAllowlistFull,
        );
      }
      await this.settings.set(DISCOVERY_ALLOWLIST, [...entries, entry].sort());
      this.audit.info({ actor: actor.username, host_port: entry }, 'providers.discovery_allowlist.entry_added');
      await this.recorded(actor, 'providers.discovery_allowlist.entry_added', entry);
    }
    return this.view();
  }

  async remove(actor: ActorContext, raw: string): Promise<DiscoveryPolicyView> {
    const entry = normaliseHostPort(raw);
    const entries = await this.entries();
    if (entries.includes(entry)) {
      await this.settings.set(
        DISCOVERY_ALLOWLIST,
        entries.filter((e) => e !== entry),
      );
      this.audit.info({ actor: actor.username, host_port: entry }, 'providers.discovery_allowlist.entry_removed');
      await this.recorded(actor, 'providers.discovery_allowlist.entry_removed', entry);
    }
    return this.view();
  }

  /** Who may reach which private address is security policy: each change is a row of the audit trail. */
  private async recorded(actor: ActorContext, action: string, entry: string): Promise<void> {
    await this.trail.record({
      actor: actor.username,
      action,
      target: `host_port:${entry}`,
      outcome: 'success',
      details: { host_port: entry },
    });
  }
}
