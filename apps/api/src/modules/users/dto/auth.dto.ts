import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

import { PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from '@app/domain';

import { UserIdentityDto } from './user.dto';

@ApiSchema({ name: 'CredentialsRequest' })
export class CredentialsDto {
  @ApiProperty({ minLength: 1, maxLength: USERNAME_MAX_LENGTH, example: 'ceo' })
  @IsString()
  @MinLength(1)
  @MaxLength(USERNAME_MAX_LENGTH)
  username!: string;

  @ApiProperty({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}

@ApiSchema({ name: 'ChangePasswordRequest' })
export class ChangePasswordDto {
  @ApiProperty({ maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  current_password!: string;

  @ApiProperty({ minLength: 12, maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  new_password!: string;
}

@ApiSchema({ name: 'TokenResponse' })
export class TokenResponseDto {
  @ApiProperty({
    description: 'HS256 JWT; send as `Authorization: Bearer <token>` (also set as the HttpOnly `session` cookie)',
  })
  token!: string;

  @ApiProperty({ description: 'Seconds until the token expires' })
  expires_in!: number;

  @ApiProperty()
  must_change_password!: boolean;
}

@ApiSchema({ name: 'UserInfoResponse' })
export class UserInfoDto extends UserIdentityDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'The current session (JWT jti); null for the CLI token' })
  session_id!: string | null;
}

export class SessionsQueryDto {
  @ApiPropertyOptional({ enum: ['own', 'all'], default: 'own', description: '`all` is CEO only' })
  @IsOptional()
  @IsIn(['own', 'all'])
  scope: 'own' | 'all' = 'own';
}

@ApiSchema({ name: 'SessionResponse' })
export class SessionDto {
  @ApiProperty()
  session_id!: string;

  @ApiProperty()
  user_id!: string;

  @ApiProperty()
  username!: string;

  @ApiProperty({ type: 'string', nullable: true })
  ip_address!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  user_agent!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  last_active_at!: string;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;

  @ApiProperty()
  is_current!: boolean;
}

@ApiSchema({ name: 'WsTicketResponse' })
export class WsTicketDto {
  @ApiProperty({ description: 'One-time ticket for `GET /api/v1/ws?ticket=…`' })
  ticket!: string;

  @ApiProperty({ description: 'Seconds the ticket stays valid' })
  expires_in!: number;
}
