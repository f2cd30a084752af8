import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

import { type HumanRole, UnauthorizedError } from '@app/domain';

/** The authenticated caller of a request, attached by the AuthGuard. */
export interface ActorContext {
  userId: string;
  username: string;
  role: HumanRole;
  /** The session (JWT `jti`); null for the short-lived CLI system token. */
  sessionId: string | null;
  mustChangePassword: boolean;
  /** Department key a manager has authority over (null: none). */
  department: string | null;
  /** How the token arrived: the session cookie needs CSRF protection on mutations. */
  via: 'bearer' | 'cookie' | 'cli';
  /** Session expiry (epoch ms). */
  expiresAt: number;
}

export type RequestWithActor = Request & { actor?: ActorContext; requestId?: string };

/** `@Actor() actor: ActorContext`: the caller of a protected route. */
export const Actor = createParamDecorator((_data: unknown, ctx: ExecutionContext): ActorContext => {
  const actor = ctx.switchToHttp().getRequest<RequestWithActor>().actor;
  if (!actor) {
    throw new UnauthorizedError();
  }
  return actor;
});

/** `@OptionalActor()`: the caller when a token was sent to a public route, else undefined. */
export const OptionalActor = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): ActorContext | undefined =>
    ctx.switchToHttp().getRequest<RequestWithActor>().actor,
);
