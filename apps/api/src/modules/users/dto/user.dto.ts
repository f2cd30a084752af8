import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';

import { ASSIGNABLE_ROLES, HUMAN_ROLES, type HumanRole, PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from '@app/domain';

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
}

export class UpdateUserRoleDto {
  @ApiProperty({ enum: ASSIGNABLE_ROLES })
  @IsIn(ASSIGNABLE_ROLES)
  role!: HumanRole;
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
}

export class UserResponseDto extends UserIdentityDto {
  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
