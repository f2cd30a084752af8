import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, Optional } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';

import { Page, RenderedPage } from '@app/domain';

import type { RequestWithActor } from '../auth/actor';
import { IDEMPOTENCY_KEY_HEADER } from '../idempotency/idempotency-key';
import { IdempotencyService } from '../idempotency/idempotency.service';

import { ok, paged, pagedBytes } from './envelope';

/** Marks a handler whose return value is sent as is (files, SSE, raw documents). */
export const RAW_RESPONSE = 'synthorg:raw-response';

/**
 * Wraps every handler result in the ApiResponse envelope, or PaginatedResponse for a `Page` (or a
 * `RenderedPage`, whose items are JSON bytes already).
 * Kept to one operator and no per-request lookups beyond the handler's metadata: it runs on every request.
 * A request carrying `Idempotency-Key` is handed to the idempotency service around the envelope, so
 * idempotency costs every other request one header lookup rather than an interceptor of its own.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly rawHandlers = new WeakMap<object, boolean>();

  constructor(@Optional() private readonly idempotency?: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || this.isRaw(context.getHandler())) {
      return next.handle();
    }
    const http = context.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<RequestWithActor>();
    const enveloped = this.envelope(res, next);
    return req.headers[IDEMPOTENCY_KEY_HEADER] === undefined || !this.idempotency
      ? enveloped
      : this.idempotency.apply(req, res, enveloped);
  }

  private envelope(res: Response, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((value: unknown) => {
        if (res.statusCode === 204) {
          return undefined;
        }
        if (value instanceof Page) {
          return paged(value);
        }
        return value instanceof RenderedPage ? pagedBytes(value) : ok(value === undefined ? null : value);
      }),
    );
  }

  private isRaw(handler: object): boolean {
    let raw = this.rawHandlers.get(handler);
    if (raw === undefined) {
      raw = Reflect.getMetadata(RAW_RESPONSE, handler) === true;
      this.rawHandlers.set(handler, raw);
    }
    return raw;
  }
}
