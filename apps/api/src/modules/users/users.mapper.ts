import type { HumanRole } from '@app/domain';
import type { UserEntity } from '@app/persistence';

import type { UserResponseDto } from './dto/user.dto';

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
