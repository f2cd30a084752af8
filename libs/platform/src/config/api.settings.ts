import { defineSettings } from '@app/domain';

/**
 * The server part of the `api` namespace: read once when the server starts (restart required).
 * YAML paths, older variable names and defaults are those the boot configuration reads, so the
 * registry reports the values the server actually runs with.
 */
export const API_SERVER_SETTINGS = defineSettings('api', [
  {
    key: 'server_host',
    type: 'str',
    default: '127.0.0.1',
    description: 'Address the server listens on',
    group: 'Server',
    yamlPath: 'server.host',
    envAliases: ['SYNTHORG_HOST'],
  },
  {
    key: 'server_port',
    type: 'int',
    default: '8000',
    description: 'Port the server listens on',
    group: 'Server',
    min: 1,
    max: 65535,
    yamlPath: 'server.port',
    envAliases: ['SYNTHORG_PORT'],
  },
  { key: 'api_prefix', type: 'str', default: '/api/v1', description: 'Path prefix of the API', group: 'Server' },
  { key: 'ssl_certfile', type: 'str', default: '', description: 'TLS certificate file', group: 'TLS' },
  { key: 'ssl_keyfile', type: 'str', default: '', description: 'TLS private key file', group: 'TLS', sensitive: true },
  { key: 'ssl_ca_certs', type: 'str', default: '', description: 'TLS CA bundle', group: 'TLS' },
  {
    key: 'trusted_proxies',
    type: 'json',
    default: '[]',
    description: 'Proxies whose forwarded headers are trusted',
    group: 'Server',
  },
  {
    key: 'cors_allowed_origins',
    type: 'json',
    default: '["http://localhost:5173"]',
    description: 'Origins allowed by CORS',
    group: 'Server',
  },
  {
    key: 'rate_limit_unauth_max_requests',
    type: 'int',
    default: '120',
    description: 'Requests per time unit of an unauthenticated client',
    group: 'Rate limits',
    min: 1,
    max: 100_000,
    yamlPath: 'rate_limits.anonymous_per_minute',
    envAliases: ['SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE'],
  },
  {
    key: 'rate_limit_auth_max_requests',
    type: 'int',
    default: '6000',
    description: 'Requests per time unit of an authenticated user',
    group: 'Rate limits',
    min: 1,
    max: 1_000_000,
    yamlPath: 'rate_limits.authenticated_per_minute',
    envAliases: ['SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE'],
  },
  {
    key: 'rate_limit_time_unit',
    type: 'enum',
    default: 'minute',
    description: 'Window of the rate limits',
    group: 'Rate limits',
    enumValues: ['second', 'minute', 'hour', 'day'],
  },
  {
    key: 'rate_limit_exclude_paths',
    type: 'json',
    default: '["/api/v1/health"]',
    description: 'Paths the rate limits skip',
    group: 'Rate limits',
  },
]).map((definition) => ({ ...definition, restartRequired: true, level: 'advanced' as const }));
