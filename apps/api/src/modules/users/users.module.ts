import { createSecretKey } from 'node:crypto';

import { type DynamicModule, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';

import { APP_CONFIG, type AppConfig, RequestAuthenticator, WsAuthenticator } from '@app/platform';

import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { DevLoginController } from './dev-login.controller';
import { PasswordHasher } from './password-hasher';
import { SessionRevocationRelay } from './session-revocation.relay';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { TokenService } from './token.service';
import { UserDirectory } from './user-directory.facade';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { AuditModule } from '../audit';
import { SettingsModule } from '../settings';
import { USERS_API_SETTINGS } from './users.settings';

/** Human accounts: authentication (/auth), sessions, and CEO-only account administration (/users). */
@Module({})
export class UsersModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: UsersModule,
      global: true,
      imports: [
        AuditModule,
        SettingsModule.forFeature(USERS_API_SETTINGS),
        JwtModule.registerAsync({
          inject: [APP_CONFIG],
          useFactory: (c: AppConfig) => ({
            // Prepared once: a KeyObject avoids per-verify key parsing in the JWT library.
            secret: createSecretKey(Buffer.from(c.auth.jwtSecret, 'utf8')),
            signOptions: { algorithm: 'HS256' },
            verifyOptions: { algorithms: ['HS256'] },
          }),
        }),
      ],
      controllers: [AuthController, UsersController, ...(config.auth.devAuthBypass ? [DevLoginController] : [])],
      providers: [
        AuthService,
        PasswordHasher,
        SessionRevocationRelay,
        SessionsRepository,
        SessionsService,
        TokenService,
        UserDirectory,
        UsersRepository,
        UsersService,
        { provide: RequestAuthenticator, useExisting: SessionsService },
        { provide: WsAuthenticator, useExisting: AuthService },
      ],
      exports: [RequestAuthenticator, SessionsService, UserDirectory, WsAuthenticator],
    };
  }
}
