import { Controller, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { ApiEnvelope, ApiErrors, Public, RequiresSubsystems } from '@app/platform';

import { AuthService } from './auth.service';
import { TokenResponseDto } from './dto/auth.dto';
import { clientInfo, setSessionCookies } from './session-cookies';

/** Mounted only when SYNTHORG_DEV_AUTH_BYPASS is on (the route does not exist otherwise: 404). */
@ApiTags('auth')
@Controller('auth')
@RequiresSubsystems('persistence')
export class DevLoginController {
  constructor(private readonly auth: AuthService) {}

  @Post('dev-login')
  @Public()
  @ApiOperation({ summary: 'Development only: a CEO session without a password (bypass flag on)' })
  @ApiEnvelope(TokenResponseDto)
  @ApiErrors(401)
  async devLogin(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<TokenResponseDto> {
    const issued = await this.auth.devLogin(clientInfo(req));
    setSessionCookies(req, res, issued.body.token, issued.expiresAt);
    return issued.body;
  }
}
