import { ApiError } from '@app/client';

import { CliError, errorLine, ExitCode, exitCodeForStatus, fromApiError, redact, toCliError, usage } from './errors';

describe('exit codes of the command line', () => {
  it.each([
    [401, ExitCode.Unauthenticated],
    [403, ExitCode.Unauthenticated],
    [404, ExitCode.NotFound],
    [409, ExitCode.Conflict],
    [400, ExitCode.ApiError],
    [422, ExitCode.ApiError],
    [429, ExitCode.ApiError],
    [500, ExitCode.ApiError],
    [503, ExitCode.ApiError],
    [0, ExitCode.ApiError],
  ])('should map HTTP %i to exit %i', (status, code) => {
    expect(exitCodeForStatus(status)).toBe(code);
  });

  it('should keep the message and the 4-digit code of an API error, and hint at login on a 401', () => {
    const notFound = fromApiError(new ApiError('Task not found', 404, 3004, 'not_found'));
    expect(notFound).toMatchObject({ message: 'Task not found', exitCode: 4, code: 3004 });
    const unauthenticated = fromApiError(new ApiError('Authentication required', 401, 1000, 'auth'));
    expect(unauthenticated.exitCode).toBe(3);
    expect(unauthenticated.message).toContain('synthorg login');
    expect(fromApiError(new ApiError('Forbidden', 403, 1001, 'auth')).message).toContain('role');
  });

  it('should name the server of a request that got no answer', () => {
    const error = fromApiError(
      new ApiError('the service could not be reached: fetch failed', 0, 0, 'network'),
      'http://x:1',
    );
    expect(error).toMatchObject({ exitCode: 1, code: null });
    expect(error.message).toContain('(http://x:1)');
  });

  it('should pass CliErrors through and turn anything else into exit 1', () => {
    const own = usage('bad flag');
    expect(toCliError(own)).toBe(own);
    expect(own.exitCode).toBe(2);
    expect(toCliError(new Error('boom'))).toMatchObject({ message: 'boom', exitCode: 1 });
    expect(toCliError('text')).toMatchObject({ message: 'text', exitCode: 1 });
  });

  it('should write one stderr line with the code, never a token', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjZW8ifQ.abcdefghijklmnop';
    expect(errorLine(new CliError('Task not found', 4, 3004))).toBe('synthorg: Task not found (code 3004)\n');
    expect(errorLine(new CliError(`bad token ${token}`, 3, 1000))).toBe('synthorg: bad token *** (code 1000)\n');
    expect(errorLine(new CliError('secret opaque-token-value here', 1), ['opaque-token-value'])).toBe(
      'synthorg: secret *** here\n',
    );
  });

  it('should redact signed tokens, given secrets and WebSocket tickets', () => {
    expect(redact('GET /api/v1/ws?ticket=abc123&x=1')).toBe('GET /api/v1/ws?ticket=***&x=1');
    expect(redact('Bearer eyJabcdef.eyJghijkl.mnopqrst')).toBe('Bearer ***');
    // Short strings are never treated as secrets (they would blank out ordinary words).
    expect(redact('a ceo b', ['ceo'])).toBe('a ceo b');
  });
});
