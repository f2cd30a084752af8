import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';

import { Page } from '@app/domain';

import { ok, paged } from './envelope';

/** Marks a handler whose return value is sent as is (files, SSE, raw documents). */
export const RAW_RESPONSE = 'synthorg:raw-response';

/**
 * Wraps every handler result in the ApiResponse envelope, or PaginatedResponse for a `Page`.
 * Kept to one operator and no per-request lookups beyond the handler's metadata: it runs on every request.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly rawHandlers = new WeakMap<object, boolean>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || this.isRaw(context.getHandler())) {
      return next.handle();
    }
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((value: unknown) => {
        if (res.statusCode === 204) {
          return undefined;
        }
        return value instanceof Page ? paged(value) : ok(value === undefined ? null : value);
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
