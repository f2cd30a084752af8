import type { HumanRole } from '@app/domain';
import { rawBool, rawIso, type UserEntity } from '@app/persistence';

import type { UserResponseDto } from './dto/user.dto';

/** An account as the API shows it. */
export function toUserResponse(user: UserEntity): UserResponseDto {
  return {
    id: user.id,
    username: user.username,
    role: user.role as HumanRole,
    must_change_password: user.mustChangePassword,
    department: user.department,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

/** The columns of `users` a list page reads: what the response shows. */
export const USER_ROW_COLUMNS = [
  'id',
  'username',
  'role',
  'must_change_password',
  'department',
  'created_at',
  'updated_at',
] as const;

/** A raw `users` row of {@link USER_ROW_COLUMNS}, as either dialect answers it. */
export type UserRow = Record<(typeof USER_ROW_COLUMNS)[number], unknown>;

/** A raw list row as the API shows it: the same as {@link toUserResponse} of the entity. */
export function toUserResponseFromRow(row: UserRow): UserResponseDto {
  return {
    id: row.id as string,
    username: row.username as string,
    role: row.role as HumanRole,
    must_change_password: rawBool(row.must_change_password),
    department: row.department as string | null,
    created_at: rawIso(row.created_at),
    updated_at: rawIso(row.updated_at),
  };
}
