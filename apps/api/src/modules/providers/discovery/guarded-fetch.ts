import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

import { Agent, fetch as undiciFetch } from 'undici';

import { classifyAddress, ErrorCode, hostPortOf, ValidationError } from '@app/domain';

import type { FetchLike } from '../drivers/provider-auth';

/** Hops a discovery request may follow; each one is checked like the first. */
export const MAX_REDIRECTS = 3;

export interface AddressPolicy {
  blockPrivateIps: boolean;
  /** Canonical `host:port` entries that bypass the address checks. */
  allowlist: ReadonlySet<string>;
}

export class UnsafeTargetError extends ValidationError {
  constructor(target: string, reason: string) {
    super(
      `refused to connect to ${target}: ${reason}; add "${target}" to the discovery allowlist to trust it`,
      ErrorCode.UnsafeDiscoveryTarget,
    );
  }
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A fetch to providers that cannot be pointed at internal addresses: the host:port is checked
 * against the allowlist, an IP literal is classified directly, and a name is resolved with every
 * address checked inside the connection's own lookup (so what is checked is what is dialled, which
 * also defeats DNS rebinding). Redirects are followed by hand, each hop checked again. Discovery,
 * probes and test calls use a short-lived one; the registry's drivers share a long-lived one whose
 * policy is read again for every request, so an allowlist change applies to the next call.
 */
export class GuardedFetcher {
  /** One checking dispatcher per target, reused by every request to it. */
  private readonly agents = new Map<string, Agent>();

  constructor(private readonly policy: AddressPolicy | (() => Promise<AddressPolicy>)) {}

  readonly fetch: FetchLike = async (input, init) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let requestInit: RequestInit | undefined = init;
    const policy = typeof this.policy === 'function' ? await this.policy() : this.policy;
    for (let hop = 0; ; hop += 1) {
      const agent = this.check(url, policy);
      const response = (await undiciFetch(url, {
        ...(requestInit as object),
        redirect: 'manual',
        ...(agent ? { dispatcher: agent } : {}),
      } as never)) as unknown as Response;
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        return response;
      }
      if (hop >= MAX_REDIRECTS) {
        throw new UnsafeTargetError(hostPortOf(url), `more than ${MAX_REDIRECTS} redirects`);
      }
      await response.body?.cancel();
      url = new URL(location, url);
      // A redirect is followed as a plain GET, the way browsers treat 301/302/303.
      requestInit = { method: 'GET', headers: init?.headers, signal: init?.signal };
    }
  };

  /** Refuses an unsafe target up front (before a stream starts); names are checked again when dialled. */
  async assertAllowed(target: string): Promise<void> {
    this.check(new URL(target), typeof this.policy === 'function' ? await this.policy() : this.policy);
  }

  /** Refuses the URL or returns the dispatcher whose lookup re-checks resolved addresses (null: trusted). */
  private check(url: URL, policy: AddressPolicy): Agent | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UnsafeTargetError(hostPortOf(url), `scheme ${url.protocol} is not allowed`);
    }
    const target = hostPortOf(url);
    if (!policy.blockPrivateIps || policy.allowlist.has(target)) {
      return null;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      const unsafe = classifyAddress(host);
      if (unsafe) {
        throw new UnsafeTargetError(target, `${host} is a ${unsafe.replace('_', '-')} address`);
      }
      return null;
    }
    const known = this.agents.get(target);
    if (known) {
      return known;
    }
    const agent = new Agent({
      connect: {
        lookup: (hostname: string, options: object, callback: LookupCallback) => {
          dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
            if (error) {
              callback(error, []);
              return;
            }
            const list = addresses;
            const bad = list.find((a) => classifyAddress(a.address) !== null);
            if (bad) {
              const unsafe = classifyAddress(bad.address) ?? 'reserved';
              callback(
                new UnsafeTargetError(
                  target,
                  `${hostname} resolves to ${bad.address}, a ${unsafe.replace('_', '-')} address`,
                ),
                [],
              );
              return;
            }
            if ((options as { all?: boolean }).all) {
              callback(null, list);
            } else {
              callback(null, list[0].address, list[0].family);
            }
          });
        },
      },
    });
    this.agents.set(target, agent);
    return agent;
  }

  /** Closes the connections this fetcher opened. */
  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.allSettled(agents.map((a) => a.close()));
  }
}
