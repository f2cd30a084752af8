import { timingSafeEqual } from 'node:crypto';

import { type CanActivate, type ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import {
  ErrorCode,
  ForbiddenError,
  InternalError,
  type Permission,
  roleHasPermission,
  ServiceUnavailableError,
  UnauthorizedError,
} from '@app/domain';

import type { RequestWithActor } from './actor';
import { IS_PUBLIC } from './public.decorator';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  type PresentedToken,
  RequestAuthenticator,
  SESSION_COOKIE,
} from './request-authenticator';
import { ALLOW_PASSWORD_CHANGE_PENDING, REQUIRED_PERMISSION } from './require-permission.decorator';

interface RouteAuth {
  isPublic: boolean;
  permission: Permission | undefined;
  allowPasswordPending: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * An `Authorization` header decides alone, even when a session cookie rides along (a browser client
 * that also holds the cookie): explicit credentials are not ambient, so CSRF does not apply to them.
 * Only a request without the header is authenticated by the cookie.
 */
function presentedToken(req: RequestWithActor): PresentedToken | null {
  const header = req.headers.authorization;
  if (header !== undefined) {
    if (header.length > 7 && header.slice(0, 7).toLowerCase() === 'bearer ') {
      return { token: header.slice(7).trim(), via: 'bearer' };
    }
    return null;
  }
  const cookie = (req as { cookies?: Record<string, string> }).cookies?.[SESSION_COOKIE];
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

function csrfMatches(req: RequestWithActor): boolean {
  const cookie = (req as { cookies?: Record<string, string> }).cookies?.[CSRF_COOKIE];
  const header = req.headers[CSRF_HEADER];
  if (!cookie || typeof header !== 'string' || header.length !== cookie.length) {
    return false;
  }
  return timingSafeEqual(Buffer.from(header), Buffer.from(cookie));
}

/**
 * Global authentication and authorisation. Every route is either @Public() or declares one
 * permission; a route with neither is refused (fail closed). Order of checks: token → session →
 * CSRF for cookie-authenticated mutations → pending password change → role permission.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly routes = new WeakMap<object, RouteAuth>();

  constructor(
    private readonly reflector: Reflector,
    @Optional() private readonly authenticator?: RequestAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') {
      return true;
    }
    const route = this.routeAuth(context);
    const req = context.switchToHttp().getRequest<RequestWithActor>();
    const presented = presentedToken(req);
    if (route.isPublic) {
      // A public route still learns who calls it when a valid token comes along (logout, setup status).
      if (presented && this.authenticator) {
        req.actor = await this.authenticator.authenticate(presented).catch(() => undefined);
      }
      return true;
    }
    if (!this.authenticator) {
      throw new ServiceUnavailableError('Authentication is not available');
    }
    if (!presented) {
      throw new UnauthorizedError();
    }
    const actor = await this.authenticator.authenticate(presented);
    req.actor = actor;
    if (presented.via === 'cookie' && !SAFE_METHODS.has(req.method) && !csrfMatches(req)) {
      throw new ForbiddenError('CSRF token missing or invalid', ErrorCode.CsrfRejected);
    }
    if (actor.mustChangePassword && !route.allowPasswordPending) {
      throw new ForbiddenError('Password change required');
    }
    if (!route.permission) {
      throw new InternalError(`route ${req.method} ${req.path} declares no permission`);
    }
    if (!roleHasPermission(actor.role, route.permission)) {
      throw new ForbiddenError();
    }
    return true;
  }

  private routeAuth(context: ExecutionContext): RouteAuth {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (!route) {
      const targets = [handler, context.getClass()];
      route = {
        isPublic: this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true,
        permission: this.reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION, targets),
        allowPasswordPending: this.reflector.get<boolean | undefined>(ALLOW_PASSWORD_CHANGE_PENDING, handler) === true,
      };
      this.routes.set(handler, route);
    }
    return route;
  }
}
