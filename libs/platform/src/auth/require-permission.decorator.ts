import { SetMetadata } from '@nestjs/common';

import type { Permission } from '@app/domain';

export const REQUIRED_PERMISSION = 'synthorg:required-permission';
export const ALLOW_PASSWORD_CHANGE_PENDING = 'synthorg:allow-password-change-pending';
export const AUTH_RATE_LIMITED = 'synthorg:auth-rate-limited';

/** The one permission a route needs (see PERMISSION_ROLES in libs/domain for who holds it). */
export const RequirePermission = (permission: Permission): ClassDecorator & MethodDecorator =>
  SetMetadata(REQUIRED_PERMISSION, permission);

/** Reachable while the account must still change its password (change-password and me). */
export const AllowPasswordChangePending = (): MethodDecorator => SetMetadata(ALLOW_PASSWORD_CHANGE_PENDING, true);

/** Subject to the strict authentication limit (login, setup, change-password: 10 per minute per client). */
export const AuthRateLimited = (): MethodDecorator => SetMetadata(AUTH_RATE_LIMITED, true);

export const MCP_RATE_LIMITED = 'synthorg:mcp-rate-limited';

/** Counted in the `mcp` window too (the service's MCP endpoint), per user, besides the general window. */
export const McpRateLimited = (): MethodDecorator => SetMetadata(MCP_RATE_LIMITED, true);
