import { createHmac } from 'node:crypto';

import { SYSTEM_USERNAME } from '@app/domain';

import { CLI_AUDIENCE, CLI_ISSUER } from './token.service';

/** How long a minted System token lives: enough for one command, useless soon after. */
export const SYSTEM_TOKEN_TTL_SECONDS = 60;

/**
 * A short-lived token of the command-line System identity, signed (HS256) with the service's signing
 * secret: `{sub: "system", iss: "synthorg-cli", aud: "synthorg-backend", iat, exp}`. It opens the
 * backup, restore and wipe routes only, and only for whoever can read the secret.
 */
export function mintSystemToken(secret: string, nowMs = Date.now(), ttlSeconds = SYSTEM_TOKEN_TTL_SECONDS): string {
  const iat = Math.floor(nowMs / 1000);
  const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { sub: SYSTEM_USERNAME, iss: CLI_ISSUER, aud: CLI_AUDIENCE, iat, exp: iat + ttlSeconds };
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}
