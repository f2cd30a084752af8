import {
  type AuthType,
  ErrorCode,
  type ProviderProtocol,
  ProviderCallError,
  type ProviderSecrets,
  ValidationError,
} from '@app/domain';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What a driver needs to authenticate: resolved from a provider's configuration and decrypted secrets. */
export interface ProviderAuthConfig {
  authType: AuthType;
  protocol: ProviderProtocol;
  secrets: ProviderSecrets;
  customHeaderName: string | null;
  oauth: { tokenUrl: string | null; clientId: string | null; scope: string | null };
}

/** Headers that carry credentials; every one the SDKs set is replaced by ours. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'api-key'];
const OAUTH_TIMEOUT_MS = 10_000;
const OAUTH_EXPIRY_MARGIN_MS = 30_000;

/**
 * Applies a provider's authentication to outgoing requests. The SDKs are given a placeholder key;
 * this wrapper strips whatever credential header they set and adds the provider's real one, so the
 * five auth types work the same way across the three protocols.
 */
export class ProviderAuth {
  private token: { value: string; expiresAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly config: ProviderAuthConfig,
    private readonly baseFetch: FetchLike = fetch,
  ) {}

  /** A fetch that authenticates with this provider's credentials. */
  wrap(): FetchLike {
    const base = this.baseFetch;
    return async (input, init) => {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      for (const name of CREDENTIAL_HEADERS) {
        headers.delete(name);
      }
      for (const [name, value] of Object.entries(await this.headers())) {
        headers.set(name, value);
      }
      return base(input, { ...init, headers });
    };
  }

  async headers(): Promise<Record<string, string>> {
    const { authType, secrets, protocol } = this.config;
    switch (authType) {
      case 'api_key':
        return secrets.apiKey ? keyHeaders(protocol, secrets.apiKey) : {};
      case 'subscription':
        // A subscription token is a bearer credential of the user's plan, sent where the key would go.
        return secrets.subscriptionToken ? { authorization: `Bearer ${secrets.subscriptionToken}` } : {};
      case 'custom_header':
        return this.config.customHeaderName && secrets.customHeaderValue
          ? { [this.config.customHeaderName]: secrets.customHeaderValue }
          : {};
      case 'oauth':
        return { authorization: `Bearer ${await this.oauthToken()}` };
      case 'none':
        return {};
    }
  }

  /** OAuth 2.0 client-credentials token, cached until shortly before it expires. */
  private async oauthToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) {
      return this.token.value;
    }
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const { tokenUrl, clientId, scope } = this.config.oauth;
    const secret = this.config.secrets.oauthClientSecret;
    if (!tokenUrl || !clientId || !secret) {
      throw new ProviderCallError(
        'OAuth credentials are incomplete (oauth_token_url, oauth_client_id and oauth_client_secret are needed)',
        ErrorCode.ProviderOAuthError,
      );
    }
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
    if (scope) {
      body.set('scope', scope);
    }
    let response: Response;
    try {
      response = await this.baseFetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(OAUTH_TIMEOUT_MS),
      });
    } catch (error) {
      if (error instanceof ValidationError) {
        // The address policy refused the token URL: the same 400 (2014) a refused base_url gets.
        throw error;
      }
      throw new ProviderCallError(
        `OAuth token endpoint unreachable: ${(error as Error).message}`,
        ErrorCode.ProviderOAuthError,
        true,
      );
    }
    const payload = (await response.json().catch(() => null)) as {
      access_token?: unknown;
      expires_in?: unknown;
    } | null;
    if (!response.ok || typeof payload?.access_token !== 'string') {
      throw new ProviderCallError(
        `OAuth token endpoint answered ${response.status} without an access token`,
        ErrorCode.ProviderOAuthError,
        response.status >= 500,
      );
    }
    const lifetimeSec = typeof payload.expires_in === 'number' ? payload.expires_in : 3600;
    this.token = {
      value: payload.access_token,
      expiresAt: Date.now() + Math.max(0, lifetimeSec * 1000 - OAUTH_EXPIRY_MARGIN_MS),
    };
    return this.token.value;
  }
}

function keyHeaders(protocol: ProviderProtocol, key: string): Record<string, string> {
  return protocol === 'anthropic' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
}

/** The key the SDKs are constructed with; never sent (the auth wrapper replaces it). */
export const SDK_PLACEHOLDER_KEY = 'provided-by-auth-wrapper';
