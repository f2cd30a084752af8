import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

import { ErrorCode } from '@app/domain';

import { errorDetail, errorEnvelope } from './envelope';

/**
 * Requests Node's parser refuses before any middleware runs (a request line or headers over the
 * size limit, malformed framing) get the error envelope too, instead of a bare status line.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const detail = errorDetail(
      {
        status,
        code: ErrorCode.RequestValidationError,
        detail: tooLarge ? 'Request line or headers too large' : 'Malformed HTTP request',
        retryable: false,
        retryAfter: null,
      },
      randomUUID(),
    );
    const body = JSON.stringify(errorEnvelope(detail));
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
