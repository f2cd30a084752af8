import { randomBytes } from 'node:crypto';

import type { Request, Response } from 'express';

import { CSRF_COOKIE, SESSION_COOKIE, wantsSecureCookies } from '@app/platform';

import type { ClientInfo } from './sessions.service';

/**
 * Browser clients get the token as an HttpOnly `session` cookie (Path /api, SameSite=Strict) plus a
 * readable `csrf_token` cookie that must be echoed in X-CSRF-Token on cookie-authenticated mutations.
 * Both are `Secure` when the request came over TLS, or as SYNTHORG_COOKIE_SECURE forces.
 */
export function setSessionCookies(req: Request, res: Response, token: string, expiresAt: Date): void {
  const secure = wantsSecureCookies(req);
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, secure, sameSite: 'strict', path: '/api', expires: expiresAt });
  res.cookie(CSRF_COOKIE, randomBytes(24).toString('base64url'), {
    httpOnly: false,
    secure,
    sameSite: 'strict',
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookies(res: Response): void {
  res.clearCookie(SESSION_COOKIE, { path: '/api' });
  res.clearCookie(CSRF_COOKIE, { path: '/' });
  res.setHeader('Clear-Site-Data', '"cookies"');
}

export function clientInfo(req: Request): ClientInfo {
  const agent = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof agent === 'string' ? agent : null };
}
