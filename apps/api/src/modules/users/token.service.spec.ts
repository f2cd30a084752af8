import { createSecretKey } from 'node:crypto';

import { JwtService } from '@nestjs/jwt';

import { HumanRole, UnauthorizedError } from '@app/domain';
import type { AppConfig } from '@app/platform';

import { TokenService } from './token.service';

const SECRET = 'token-service-spec-secret-0123456789abcdef';

function service(): { tokens: TokenService; jwt: JwtService } {
  const jwt = new JwtService({
    secret: createSecretKey(Buffer.from(SECRET, 'utf8')),
    signOptions: { algorithm: 'HS256' },
    verifyOptions: { algorithms: ['HS256'] },
  });
  const config = { auth: { jwtExpiryMinutes: 60 } } as unknown as AppConfig;
  return { tokens: new TokenService(jwt, config), jwt };
}

describe('TokenService', () => {
  it('should verify a token fully once and recognise it afterwards', () => {
    const { tokens, jwt } = service();
    const verify = jest.spyOn(jwt, 'verify');
    const { token } = tokens.sign('user-1', HumanRole.Ceo, 'session-1');
    const first = tokens.verify(token);
    const second = tokens.verify(token);
    expect(first).toEqual({ kind: 'session', claims: expect.objectContaining({ sub: 'user-1', jti: 'session-1' }) });
    expect(second).toBe(first);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('should refuse a remembered token once it has expired', () => {
    const { tokens } = service();
    const now = Date.now();
    const { token, expiresAt } = tokens.sign('user-1', HumanRole.Ceo, 'session-1', now);
    expect(tokens.verify(token, now).kind).toBe('session');
    expect(() => tokens.verify(token, expiresAt.getTime() + 1)).toThrow(UnauthorizedError);
    expect(() => tokens.verify(token, expiresAt.getTime() + 1)).toThrow('Token expired');
  });

  it('should never remember a token that failed, and refuse a tampered signature', () => {
    const { tokens, jwt } = service();
    const { token } = tokens.sign('user-1', HumanRole.Ceo, 'session-1');
    const last = token.slice(-1);
    const tampered = token.slice(0, -1) + (last === 'A' ? 'B' : 'A');
    const verify = jest.spyOn(jwt, 'verify');
    expect(() => tokens.verify(tampered)).toThrow(UnauthorizedError);
    expect(() => tokens.verify(tampered)).toThrow(UnauthorizedError);
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('should refuse a token signed with another secret', () => {
    const { tokens } = service();
    const other = new JwtService({ secret: 'another-secret-entirely-0123456789', signOptions: { algorithm: 'HS256' } });
    const forged = other.sign({ sub: 'user-1', jti: 's', role: 'ceo', iss: 'synthorg-api', aud: 'synthorg-api' });
    expect(() => tokens.verify(forged)).toThrow('Invalid token');
  });

  it('should keep remembering within its bound, forgetting the oldest first', () => {
    const { tokens, jwt } = service();
    const first = tokens.sign('user-0', HumanRole.Ceo, 'session-0').token;
    tokens.verify(first);
    for (let i = 1; i <= 4096; i++) {
      tokens.verify(tokens.sign(`user-${i}`, HumanRole.Ceo, `session-${i}`).token);
    }
    const verify = jest.spyOn(jwt, 'verify');
    tokens.verify(first); // forgotten: verified again, and still valid
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
