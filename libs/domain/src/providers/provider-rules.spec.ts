import { AppError } from '../errors';
import { findPreset, PROVIDER_PRESETS, protocolFor } from './presets';
import {
  assertAuthConsistency,
  assertProviderName,
  assertUniqueModelRefs,
  type AuthShape,
  effectiveApiKey,
  resolveEndpoint,
  secretIndicators,
} from './provider-rules';

const shape = (extra: Partial<AuthShape> = {}): AuthShape => ({
  authType: 'api_key',
  secrets: {},
  oauth: { tokenUrl: null, clientId: null, scope: null },
  customHeaderName: null,
  tosAcceptedAt: null,
  ...extra,
});

describe('provider presets', () => {
  it('should ship exactly eleven, uniquely named', () => {
    expect(PROVIDER_PRESETS).toHaveLength(11);
    expect(new Set(PROVIDER_PRESETS.map((p) => p.name)).size).toBe(11);
  });

  it('should give local presets http candidate URLs and no auth', () => {
    for (const preset of PROVIDER_PRESETS.filter((p) => p.local)) {
      expect(preset.supported_auth_types).toEqual(['none']);
      expect(preset.candidate_urls.every((u) => u.startsWith('http://'))).toBe(true);
    }
  });

  it.each([
    [null, 'anthropic', 'anthropic'],
    [null, 'ollama', 'ollama'],
    [null, 'groq', 'openai_compatible'],
    ['ollama', 'whatever', 'ollama'],
    ['lm-studio', 'openai', 'openai_compatible'],
  ] as const)('should pick the protocol for preset %s / gateway %s: %s', (preset, gateway, expected) => {
    expect(protocolFor(preset, gateway)).toBe(expected);
  });
});

describe('provider rules', () => {
  it.each(['ab', 'open-ai', 'a1', 'x'.repeat(64)])('should accept the name %s', (name) => {
    expect(() => assertProviderName(name)).not.toThrow();
  });

  it.each([
    'a',
    '-ab',
    'ab-',
    'Ab',
    'a_b',
    'presets',
    'from-preset',
    'probe-preset',
    'discovery-policy',
    'x'.repeat(65),
  ])('should refuse the name %s', (name) => {
    expect(() => assertProviderName(name)).toThrow(AppError);
  });

  it.each<[string, Partial<AuthShape>, string | undefined]>([
    ['subscription token without terms', { secrets: { subscriptionToken: 't' } }, undefined],
    ['api key under subscription auth', { authType: 'subscription', secrets: { apiKey: 'k' } }, undefined],
    ['header value without its name', { secrets: { customHeaderValue: 'v' } }, undefined],
    ['custom_header auth without a name', { authType: 'custom_header' }, undefined],
    ['an auth type the preset lacks', { authType: 'none' }, 'openai'],
  ])('should refuse %s', (_label, extra, preset) => {
    expect(() => assertAuthConsistency(shape(extra), preset ? findPreset(preset) : undefined)).toThrow(AppError);
  });

  it('should accept a subscription token with accepted terms and use it as the key', () => {
    const s = shape({ authType: 'subscription', secrets: { subscriptionToken: 'tok' }, tosAcceptedAt: new Date() });
    expect(() => assertAuthConsistency(s, findPreset('anthropic'))).not.toThrow();
    expect(effectiveApiKey(s)).toBe('tok');
  });

  it('should report OAuth credentials only when id, secret and token URL are all set', () => {
    const partial = shape({
      oauth: { tokenUrl: 'https://t', clientId: null, scope: null },
      secrets: { oauthClientSecret: 's' },
    });
    expect(secretIndicators(partial).has_oauth_credentials).toBe(false);
    const full = shape({
      oauth: { tokenUrl: 'https://t', clientId: 'c', scope: null },
      secrets: { oauthClientSecret: 's' },
    });
    expect(secretIndicators(full)).toEqual({
      has_api_key: false,
      has_oauth_credentials: true,
      has_custom_header: false,
      has_subscription_token: false,
    });
  });

  it.each([
    ['http://mine:1/v1', null, 'x', 'http://mine:1/v1'],
    [null, 'ollama', 'ollama', 'http://localhost:11434'],
    [null, null, 'openai', 'https://api.openai.com/v1'],
    [null, 'openrouter', 'openrouter', 'https://openrouter.ai/api/v1'],
  ])('should resolve the endpoint of base %s / preset %s / gateway %s', (base, preset, gateway, expected) => {
    expect(resolveEndpoint(base, preset, gateway)).toBe(expected);
  });

  it.each([
    [null, 'azure', 'azure'],
    [null, null, 'my-gateway'],
  ])('should refuse a provider with no endpoint (preset %s, gateway %s)', (base, preset, gateway) => {
    expect(() => resolveEndpoint(base, preset, gateway)).toThrow(AppError);
  });

  it('should refuse a reference used twice across ids and aliases', () => {
    expect(() =>
      assertUniqueModelRefs([
        { id: 'a', alias: 'x' },
        { id: 'x', alias: null },
      ]),
    ).toThrow(AppError);
    expect(() =>
      assertUniqueModelRefs([
        { id: 'a', alias: 'a' },
        { id: 'b', alias: null },
      ]),
    ).not.toThrow();
  });
});
