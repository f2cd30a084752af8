import { Body, Controller, Delete, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { HumanRole, Permission, ForbiddenError } from '@app/domain';
import {
  Actor,
  type ActorContext,
  AllowPasswordChangePending,
  ApiEnvelope,
  ApiErrors,
  ApiNoContent,
  AuthRateLimited,
  OptionalActor,
  PathId,
  Public,
  RequirePermission,
  RequiresSubsystems,
} from '@app/platform';

import { AuthService } from './auth.service';
import {
  ChangePasswordDto,
  CredentialsDto,
  SessionDto,
  SessionsQueryDto,
  TokenResponseDto,
  UserInfoDto,
  WsTicketDto,
} from './dto/auth.dto';
import { clearSessionCookies, clientInfo, setSessionCookies } from './session-cookies';
import { SessionsService } from './sessions.service';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('auth')
@RequiresSubsystems('persistence')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
  ) {}

  @Post('setup')
  @Public()
  @AuthRateLimited()
  @ApiOperation({ summary: 'Create the first CEO account (only while none exists)' })
  @ApiEnvelope(TokenResponseDto, { status: 201 })
  @ApiErrors(400, 409, 429)
  async setup(
    @Body() dto: CredentialsDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TokenResponseDto> {
    const issued = await this.auth.setup(dto, clientInfo(req));
    setSessionCookies(req, res, issued.body.token, issued.expiresAt);
    return issued.body;
  }

  @Post('login')
  @Public()
  @AuthRateLimited()
  @ApiOperation({ summary: 'Log in with username and password' })
  @ApiEnvelope(TokenResponseDto)
  @ApiErrors(400, 401, 429)
  async login(
    @Body() dto: CredentialsDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TokenResponseDto> {
    const issued = await this.auth.login(dto, clientInfo(req));
    setSessionCookies(req, res, issued.body.token, issued.expiresAt);
    return issued.body;
  }

  @Post('change-password')
  @RequirePermission(Permission.Self)
  @AllowPasswordChangePending()
  @AuthRateLimited()
  @ApiOperation({ summary: 'Change the own password; revokes every older session and returns a new token' })
  @ApiEnvelope(TokenResponseDto)
  @ApiErrors(400, 401, 403, 429)
  async changePassword(
    @Actor() actor: ActorContext,
    @Body() dto: ChangePasswordDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TokenResponseDto> {
    const issued = await this.auth.changePassword(actor, dto, clientInfo(req));
    setSessionCookies(req, res, issued.body.token, issued.expiresAt);
    return issued.body;
  }

  @Get('me')
  @RequirePermission(Permission.Self)
  @AllowPasswordChangePending()
  @ApiOperation({ summary: 'The authenticated user' })
  @ApiEnvelope(UserInfoDto)
  @ApiErrors(401)
  me(@Actor() actor: ActorContext): UserInfoDto {
    return this.auth.me(actor);
  }

  @Get('sessions')
  @RequirePermission(Permission.Self)
  @ApiOperation({ summary: 'Active sessions: own, or all (CEO only)' })
  @ApiEnvelope(SessionDto, { isArray: true })
  @ApiErrors(400, 401, 403)
  listSessions(@Actor() actor: ActorContext, @Query() query: SessionsQueryDto): Promise<SessionDto[]> {
    if (query.scope === 'all' && actor.role !== HumanRole.Ceo) {
      throw new ForbiddenError('Only the CEO can list all sessions');
    }
    return this.sessions.list(actor, query.scope);
  }

  @Delete('sessions/:session_id')
  @RequirePermission(Permission.Self)
  @ApiOperation({ summary: 'Revoke a session (own, or any for the CEO)' })
  @ApiNoContent()
  @ApiErrors(400, 401, 404)
  revokeSession(@Actor() actor: ActorContext, @PathId('session_id') sessionId: string): Promise<void> {
    return this.sessions.revokeOne(actor, sessionId);
  }

  @Post('logout')
  @Public()
  @ApiOperation({ summary: 'Revoke the current session and clear cookies (idempotent)' })
  @ApiNoContent()
  async logout(
    @OptionalActor() actor: ActorContext | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.auth.logout(actor);
    clearSessionCookies(res);
  }

  @Post('ws-ticket')
  @RequirePermission(Permission.Self)
  @ApiOperation({ summary: 'Exchange the session for a one-time WebSocket ticket (30 s, single use)' })
  @ApiEnvelope(WsTicketDto, { status: 201 })
  @ApiErrors(401, 403, 429)
  wsTicket(@Actor() actor: ActorContext): Promise<WsTicketDto> {
    return this.auth.issueWsTicket(actor);
  }
}
