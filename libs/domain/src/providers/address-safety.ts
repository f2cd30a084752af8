import { BlockList, isIP } from 'node:net';

import { ErrorCode, ValidationError } from '../errors';

/**
 * Address classes discovery and probing must never reach on their own: a provider URL is user
 * input, and fetching it from inside the cluster could otherwise read internal services or the
 * cloud metadata endpoint (server-side request forgery).
 */
export type UnsafeAddressClass =
  'loopback' | 'private' | 'link_local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

const RANGES: readonly [UnsafeAddressClass, 'ipv4' | 'ipv6', string, number][] = [
  // Metadata endpoints first: they sit inside link-local and private ranges but deserve their own name.
  ['metadata', 'ipv4', '169.254.169.254', 32],
  ['metadata', 'ipv4', '100.100.100.200', 32],
  ['metadata', 'ipv6', 'fd00:ec2::254', 128],
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['private', 'ipv4', '100.64.0.0', 10],
  ['link_local', 'ipv4', '169.254.0.0', 16],
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['reserved', 'ipv4', '198.18.0.0', 15],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  ['private', 'ipv6', 'fc00::', 7],
  ['link_local', 'ipv6', 'fe80::', 10],
  ['multicast', 'ipv6', 'ff00::', 8],
];

const LISTS = RANGES.map(([cls, family, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { cls, family, list };
});

/** IPv4 embedded in an IPv6 address (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::/96), else null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) {
    return dotted[1];
  }
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** The unsafe class of an IP address, or null when it is a public address. Not an IP → 'reserved'. */
export function classifyAddress(address: string): UnsafeAddressClass | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) {
    return 'reserved';
  }
  const v4 = family === 6 ? embeddedIpv4(bare) : bare;
  const target = v4 ?? bare;
  const targetFamily = v4 ? 'ipv4' : family === 4 ? 'ipv4' : 'ipv6';
  for (const { cls, family: f, list } of LISTS) {
    if (f === targetFamily && list.check(target, targetFamily)) {
      return cls;
    }
  }
  return null;
}

export const HOST_PORT_MAX_LENGTH = 262;

/**
 * Canonical `host:port` of an allowlist entry: lower-case host, IPv6 in brackets, explicit port.
 * Throws a ValidationError naming the problem.
 */
export function normaliseHostPort(raw: string): string {
  const value = raw.trim();
  // These refusals keep the generic 2000: clients of the discovery allowlist already rely on it.
  if (value.length === 0 || value.length > HOST_PORT_MAX_LENGTH || /[\s/?#@]/.test(value)) {
    throw new ValidationError(`host_port must be "host:port" (got ${JSON.stringify(raw)})`, ErrorCode.ValidationError);
  }
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    throw new ValidationError(`host_port must be "host:port" (got ${JSON.stringify(raw)})`, ErrorCode.ValidationError);
  }
  const explicitPort = /:(\d{1,5})$/.exec(value);
  if (!explicitPort || url.hostname === '') {
    throw new ValidationError(
      `host_port needs an explicit port, e.g. "localhost:11434" (got ${JSON.stringify(raw)})`,
      ErrorCode.ValidationError,
    );
  }
  const port = Number(explicitPort[1]);
  if (port < 1 || port > 65535) {
    throw new ValidationError(
      `host_port has a port outside 1-65535 (got ${JSON.stringify(raw)})`,
      ErrorCode.ValidationError,
    );
  }
  return `${url.hostname.toLowerCase()}:${port}`;
}

/** `host:port` of a URL, the port defaulting to the scheme's (80 for http, 443 for https). */
export function hostPortOf(url: URL): string {
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return `${url.hostname.toLowerCase()}:${port}`;
}

/**
 * Parses a provider base URL: http(s) with a host, no credentials, no fragment. Throws a
 * ValidationError naming `field`.
 */
export function parseBaseUrl(raw: string, field = 'base_url'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(
      `${field} must be an absolute http(s) URL (got ${JSON.stringify(raw)})`,
      ErrorCode.ProviderUrlInvalid,
    );
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new ValidationError(
      `${field} must be an http(s) URL with a host (got ${JSON.stringify(raw)})`,
      ErrorCode.ProviderUrlInvalid,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ValidationError(
      `${field} must not carry credentials; use the provider's secret fields`,
      ErrorCode.ProviderUrlInvalid,
    );
  }
  if (url.hash !== '') {
    throw new ValidationError(`${field} must not have a fragment`, ErrorCode.ProviderUrlInvalid);
  }
  return url;
}
