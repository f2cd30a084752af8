import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';

import { AppError, DatabaseUnavailableError, ErrorCode, isDatabaseUnreachable } from '@app/domain';

import { Correlation } from '../context/correlation';

import {
  errorDetail,
  errorEnvelope,
  fromAppError,
  prefersProblemJson,
  problemBody,
  type RenderedError,
} from './envelope';

export interface ErrorLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const GENERIC_5XX = 'Internal server error';

/** Status → code for framework exceptions that carry no code of their own. */
export function fallbackCode(status: number): ErrorCode {
  switch (status) {
    case 401:
      return ErrorCode.Unauthorized;
    case 403:
      return ErrorCode.Forbidden;
    case 404:
      return ErrorCode.RouteNotFound;
    case 409:
      return ErrorCode.ResourceConflict;
    case 429:
      return ErrorCode.RateLimited;
    case 503:
      return ErrorCode.ServiceUnavailable;
    default:
      return status >= 500 ? ErrorCode.InternalError : ErrorCode.RequestValidationError;
  }
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') {
    return response;
  }
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) {
    return message.map(String).join('; ');
  }
  return typeof message === 'string' ? message : exception.message;
}

/** Errors raised by Express middleware (body-parser) carry a numeric status but are not HttpExceptions. */
function middlewareStatus(exception: unknown): number | null {
  if (exception && typeof exception === 'object') {
    const status =
      (exception as { status?: unknown; statusCode?: unknown }).status ??
      (exception as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return status;
    }
  }
  return null;
}

export function renderException(exception: unknown): RenderedError {
  if (exception instanceof AppError) {
    return fromAppError(exception);
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = fallbackCode(status);
    const retryable = status === 429 || status === 503;
    // Our own limits throw RateLimitedError with the real wait; a bare 429 gets a one-minute hint.
    const retryAfter = status === 429 ? 60 : null;
    return { status, code, detail: httpExceptionMessage(exception), retryable, retryAfter };
  }
  if (isDatabaseUnreachable(exception)) {
    // Postgres down, restarting or cut off: the request may be retried once it is back.
    return fromAppError(new DatabaseUnavailableError());
  }
  const status = middlewareStatus(exception);
  if (status !== null) {
    const message = exception instanceof Error ? exception.message : 'Invalid request';
    return { status, code: ErrorCode.RequestValidationError, detail: message, retryable: false, retryAfter: null };
  }
  return { status: 500, code: ErrorCode.InternalError, detail: GENERIC_5XX, retryable: false, retryAfter: null };
}

/**
 * The one global filter: every error becomes the ApiResponse envelope, or an RFC 9457 body when the
 * client prefers application/problem+json. `instance` is the request id; 5xx details are scrubbed.
 */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: ErrorLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') {
      return;
    }
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request & { requestId?: string }>();
    const res = ctx.getResponse<Response>();
    const rendered = renderException(exception);
    if (rendered.status >= 500) {
      this.logUnexpected(exception, rendered, req);
      // 503 texts name the missing prerequisite on purpose, and a few errors name what is wrong with
      // stored data (a backup's checksum); every other 5xx detail is scrubbed.
      if (rendered.status !== 503 && !(exception instanceof AppError && exception.publicDetail)) {
        rendered.detail = GENERIC_5XX;
      }
    }
    const instance = req.requestId ?? Correlation.requestId() ?? 'unknown';
    const detail = errorDetail(rendered, instance);
    if (res.headersSent) {
      return;
    }
    if (detail.retry_after !== null) {
      res.setHeader('Retry-After', String(detail.retry_after));
    }
    if (prefersProblemJson(req.headers.accept)) {
      res
        .status(rendered.status)
        .type('application/problem+json')
        .send(JSON.stringify(problemBody(detail, rendered.status)));
      return;
    }
    res.status(rendered.status).json(errorEnvelope(detail));
  }

  private logUnexpected(exception: unknown, rendered: RenderedError, req: Request): void {
    const fields = { err: exception, error_code: rendered.code, method: req.method, path: req.originalUrl ?? req.url };
    if (rendered.status === 503) {
      this.logger.warn(fields, 'api.request.unavailable');
    } else {
      this.logger.error(fields, 'api.request.failed');
    }
  }
}
