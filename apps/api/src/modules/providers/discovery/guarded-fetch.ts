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
      `refused to connect to ${target}: ${reason}; to trust it, a CEO adds it with ` +
        `POST /api/v1/providers/discovery-policy/entries {"host_port": "${target}"}, or gives ` +
        '"trust_address": true when creating or updating the provider',
      ErrorCode.UnsafeDiscoveryTarget,
    );
  }
}

/** The only headers a redirect to another origin keeps: none of them can carry a credential. */
export const CROSS_ORIGIN_REDIRECT_HEADERS: readonly string[] = [
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'user-agent',
];

function withoutCredentials(headers: Headers): Headers {
  const kept = new Headers();
  for (const name of CROSS_ORIGIN_REDIRECT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) {
      kept.set(name, value);
    }
  }
  return kept;
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

  /**
   * `followRedirects: false` hands every redirect back to the caller unfollowed (a tool server's MCP
   * client follows same-origin hops itself, each through this fetch, and refuses the others).
   */
  constructor(
    private readonly policy: AddressPolicy | (() => Promise<AddressPolicy>),
    private readonly options: { followRedirects?: boolean } = {},
  ) {}

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
      if (response.status < 300 || response.status >= 400 || !location || this.options.followRedirects === false) {
        return response;
      }
      if (hop >= MAX_REDIRECTS) {
        throw new UnsafeTargetError(hostPortOf(url), `more than ${MAX_REDIRECTS} redirects`);
      }
      await response.body?.cancel();
      const next = new URL(location, url);
      // A redirect is followed as a plain GET, the way browsers treat 301/302/303. A hop to another
      // origin (scheme, host or port) carries no credential: only the headers below survive it.
      const headers =
        next.origin === url.origin ? requestInit?.headers : withoutCredentials(new Headers(requestInit?.headers));
      url = next;
      requestInit = { method: 'GET', headers, signal: init?.signal };
    }
  };

  /** Refuses an unsafe target up front (before a stream starts); names are checked again when dialled. */
  async assertAllowed(target: string): Promise<void> {
    this.check(new URL(target), typeof this.policy === 'function' ? await this.policy() : this.policy);
  }

  /** Refuses the URL or returns the dispatcher whose lookup re-checks resolved addresses (null: trusted). */
  private check(url: URL, policy: AddressPolicy): Agent | null {
    const verdict = literalVerdict(url, policy);
    if (verdict instanceof UnsafeTargetError) {
      throw verdict;
    }
    if (verdict === 'trusted') {
      return null;
    }
    const target = hostPortOf(url);
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

/**
 * What the URL alone tells: refused (bad scheme, an unsafe IP literal), trusted (no blocking, an
 * allowlisted host:port, a public IP literal), or a name whose addresses decide when it is dialled.
 */
function literalVerdict(url: URL, policy: AddressPolicy): UnsafeTargetError | 'trusted' | 'name' {
  const target = hostPortOf(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return new UnsafeTargetError(target, `scheme ${url.protocol} is not allowed`);
  }
  if (!policy.blockPrivateIps || policy.allowlist.has(target)) {
    return 'trusted';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0) {
    return 'name';
  }
  const unsafe = classifyAddress(host);
  return unsafe ? new UnsafeTargetError(target, `${host} is a ${unsafe.replace('_', '-')} address`) : 'trusted';
}

/** How long a refusal check waits for a name to resolve before leaving it to the dial-time check. */
const RESOLVE_TIMEOUT_MS = 2_000;

/**
 * The refusal every call to `target` would meet, found before any call is made: the URL's own
 * verdict, then the addresses its name resolves to now. A name that does not resolve (yet) is not
 * refused here; each connection checks what it dials in any case.
 */
export async function addressRefusal(target: string, policy: AddressPolicy): Promise<UnsafeTargetError | null> {
  const url = new URL(target);
  const verdict = literalVerdict(url, policy);
  if (verdict !== 'name') {
    return verdict === 'trusted' ? null : verdict;
  }
  const addresses = await resolveWithin(url.hostname, RESOLVE_TIMEOUT_MS);
  const bad = addresses.find((a) => classifyAddress(a.address) !== null);
  if (!bad) {
    return null;
  }
  const unsafe = classifyAddress(bad.address) ?? 'reserved';
  return new UnsafeTargetError(
    hostPortOf(url),
    `${url.hostname} resolves to ${bad.address}, a ${unsafe.replace('_', '-')} address`,
  );
}

function resolveWithin(hostname: string, timeoutMs: number): Promise<LookupAddress[]> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve([]), timeoutMs);
    timer.unref();
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      clearTimeout(timer);
      resolve(error ? [] : addresses);
    });
  });
}
