/** Socket-level failures of a database connection (Node's error codes). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
/**
 * Postgres SQLSTATEs of a server that is not there to answer: connection exceptions (class 08) and
 * operator intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now).
 */
const SERVER_GONE = /^(08\d{3}|57P0[1-3])$/;
/** What node-postgres and its pool say when a connection ends or never comes. */
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
];

/**
 * Whether an error (or the driver error or cause it wraps) says the database cannot be reached right
 * now, as opposed to a statement it refused: such requests answer 503 and may be retried.
 */
export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 4) {
    return false;
  }
  const { code, message, driverError, cause } = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_GONE.test(code))) {
    return true;
  }
  if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) {
    return true;
  }
  return isDatabaseUnreachable(driverError, depth + 1) || isDatabaseUnreachable(cause, depth + 1);
}
