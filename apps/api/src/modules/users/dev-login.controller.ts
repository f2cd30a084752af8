import { Controller, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { Endpoint, RequiresSubsystems } from '@app/platform';

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
  @Endpoint({
    summary: 'Development only: a CEO session without a password (bypass flag on)',
    response: TokenResponseDto,
    errors: [401],
    public: true,
  })
  async devLogin(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<TokenResponseDto> {
    const issued = await this.auth.devLogin(clientInfo(req));
    setSessionCookies(req, res, issued.body.token, issued.expiresAt);
    return issued.body;
  }
}
