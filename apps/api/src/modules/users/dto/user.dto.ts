import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

import { ASSIGNABLE_ROLES, HUMAN_ROLES, type HumanRole, PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from '@app/domain';

@ApiSchema({ name: 'CreateUserRequest' })
export class CreateUserDto {
  @ApiProperty({ minLength: 1, maxLength: USERNAME_MAX_LENGTH })
  @IsString()
  @MinLength(1)
  @MaxLength(USERNAME_MAX_LENGTH)
  username!: string;

  @ApiProperty({ minLength: 12, maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;

  @ApiProperty({ enum: ASSIGNABLE_ROLES })
  @IsIn(ASSIGNABLE_ROLES)
  role!: HumanRole;

  @ApiPropertyOptional({ maxLength: 128, description: "A manager's department: its authority is limited to it" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  department?: string;
}

@ApiSchema({ name: 'UpdateUserRoleRequest' })
export class UpdateUserRoleDto {
  @ApiProperty({ enum: ASSIGNABLE_ROLES })
  @IsIn(ASSIGNABLE_ROLES)
  role!: HumanRole;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 128, description: 'Omit to keep; null to clear' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  department?: string | null;
}

/** The identity fields every account view shares. */
export class UserIdentityDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  username!: string;

  @ApiProperty({ enum: HUMAN_ROLES })
  role!: HumanRole;

  @ApiProperty()
  must_change_password!: boolean;

  @ApiProperty({ type: 'string', nullable: true })
  department!: string | null;
}

@ApiSchema({ name: 'UserResponse' })
export class UserResponseDto extends UserIdentityDto {
  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
