import { isDatabaseUnreachable } from './database-unreachable';

const withCode = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });

describe('isDatabaseUnreachable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset socket', withCode('ECONNRESET')],
    ['an admin shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['a server starting up', withCode('57P03', 'the database system is starting up')],
    ['a connection failure', withCode('08006')],
    ['a terminated connection', new Error('Connection terminated unexpectedly')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['a wrapped driver error', Object.assign(new Error('query failed'), { driverError: withCode('ECONNREFUSED') })],
    ['a cause', new Error('outer', { cause: withCode('57P01') })],
  ])('should recognise %s', (_name, error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value')],
    ['a syntax error', withCode('42601')],
    ['a plain error', new Error('boom')],
    ['no error', null],
    ['a string', 'ECONNREFUSED'],
  ])('should not take %s for an unreachable database', (_name, error) => {
    expect(isDatabaseUnreachable(error)).toBe(false);
  });
});
