import { Body, Controller, Delete, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { HumanRole, Permission, ForbiddenError } from '@app/domain';
import {
  Actor,
  type ActorContext,
  AllowPasswordChangePending,
  AuthRateLimited,
  Endpoint,
  OptionalActor,
  PathId,
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
  @Endpoint({
    summary: 'Create the first CEO account (only while none exists)',
    response: TokenResponseDto,
    status: 201,
    errors: [400, 409, 429],
    public: true,
  })
  @AuthRateLimited()
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
  @Endpoint({
    summary: 'Log in with username and password',
    response: TokenResponseDto,
    errors: [400, 401, 429],
    public: true,
  })
  @AuthRateLimited()
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
  @Endpoint({
    summary: 'Change the own password; revokes every older session and returns a new token',
    response: TokenResponseDto,
    errors: [400, 401, 403, 429],
    permission: Permission.Self,
  })
  @AllowPasswordChangePending()
  @AuthRateLimited()
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
  @Endpoint({ summary: 'The authenticated user', response: UserInfoDto, errors: [401], permission: Permission.Self })
  @AllowPasswordChangePending()
  me(@Actor() actor: ActorContext): UserInfoDto {
    return this.auth.me(actor);
  }

  @Get('sessions')
  @Endpoint({
    summary: 'Active sessions: own, or all (CEO only)',
    response: SessionDto,
    isArray: true,
    errors: [400, 401, 403],
    permission: Permission.Self,
  })
  listSessions(@Actor() actor: ActorContext, @Query() query: SessionsQueryDto): Promise<SessionDto[]> {
    if (query.scope === 'all' && actor.role !== HumanRole.Ceo) {
      throw new ForbiddenError('Only the CEO can list all sessions');
    }
    return this.sessions.list(actor, query.scope);
  }

  @Delete('sessions/:session_id')
  @Endpoint({
    summary: 'Revoke a session (own, or any for the CEO)',
    noContent: true,
    errors: [400, 401, 404],
    permission: Permission.Self,
  })
  revokeSession(@Actor() actor: ActorContext, @PathId('session_id') sessionId: string): Promise<void> {
    return this.sessions.revokeOne(actor, sessionId);
  }

  @Post('logout')
  @Endpoint({
    summary: 'Revoke the current session and clear cookies (idempotent)',
    noContent: true,
    errors: [],
    public: true,
  })
  async logout(
    @OptionalActor() actor: ActorContext | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.auth.logout(actor);
    clearSessionCookies(res);
  }

  @Post('ws-ticket')
  @Endpoint({
    summary: 'Exchange the session for a one-time WebSocket ticket (30 s, single use)',
    response: WsTicketDto,
    status: 201,
    errors: [401, 403, 429],
    permission: Permission.Self,
  })
  wsTicket(@Actor() actor: ActorContext): Promise<WsTicketDto> {
    return this.auth.issueWsTicket(actor);
  }
}
