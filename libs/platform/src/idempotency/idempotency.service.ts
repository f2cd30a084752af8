import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { catchError, defer, from, mergeMap, type Observable, of, throwError } from 'rxjs';

import { AppError, ErrorCode, IdempotencyKeyInFlightError, IdempotencyKeyMismatchError } from '@app/domain';

import type { RequestWithActor } from '../auth/actor';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { renderException } from '../http/exception.filter';
import type { LoggingRuntime } from '../logging';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';

import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_METHODS,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyScopeId,
  parseIdempotencyKey,
  RequestFingerprinter,
} from './idempotency-key';
import { type IdempotencyClaim, IdempotencyKeyRepository } from './idempotency-key.repository';

/**
 * Routes whose answers are credentials (session tokens, WebSocket tickets): never stored, so the
 * header is accepted there but not applied. Anonymous requests (login, first-run setup) are skipped
 * too: without an actor there is nobody to scope the key to.
 */
const CREDENTIAL_ROUTES = /\/auth\//;
/** Response headers a replay repeats beside the status and body. */
const REPLAYED_HEADERS = ['etag', 'location'] as const;

/** What the store keeps of an answer: the body of a success, or the code and text of an error. */
type StoredResponse =
  | { kind: 'body'; body?: unknown; headers?: Record<string, string> }
  | { kind: 'error'; code: ErrorCode; detail: string };

/**
 * `Idempotency-Key` on mutating requests (the IETF httpapi idempotency-key draft, Stripe's rules).
 * The key is bound to the actor, the method and route pattern, and the path parameters, and lives in
 * the database, so every replica sees it for 24 hours. The first request claims it; its answer is
 * stored and replayed (with `Idempotent-Replayed: true`) to a retry with the same payload. A retry with
 * another payload gets 422 (2026), one while the first still runs 409 (4022, retryable). Answers a
 * retry may change (5xx, retryable errors, request validation failures) release the key instead.
 *
 * The envelope interceptor hands a request over only when it carries the header, so every other
 * request costs one header lookup; what is stored and replayed is the enveloped body.
 */
@Injectable()
export class IdempotencyService {
  private readonly fingerprinter: RequestFingerprinter;
  private readonly log: Logger;

  constructor(
    private readonly keys: IdempotencyKeyRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.fingerprinter = new RequestFingerprinter(config.auth.jwtSecret);
    this.log = logging.forName('api.idempotency');
  }

  /**
   * Wraps a mutating request that carries `Idempotency-Key`; `handled` is the route's enveloped answer,
   * run only by the request that claims the key. Requests the key does not apply to run unchanged.
   */
  apply(req: RequestWithActor, res: Response, handled: Observable<unknown>): Observable<unknown> {
    const header = req.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined || !IDEMPOTENT_METHODS.has(req.method)) {
      return handled;
    }
    const key = parseIdempotencyKey(header);
    const route = (req.route as { path?: unknown } | undefined)?.path;
    if (!req.actor || typeof route !== 'string' || CREDENTIAL_ROUTES.test(route)) {
      return handled;
    }
    const id = idempotencyScopeId({
      actor: req.actor.userId,
      method: req.method,
      route,
      params: req.params as Record<string, string>,
      key,
    });
    const fingerprint = this.fingerprinter.fingerprint(req.body, req.query);
    return defer(() => this.keys.claim(id, fingerprint)).pipe(
      mergeMap((claim) =>
        claim.state === 'claimed' ? this.run(id, claim.claimToken, res, handled) : replay(claim, fingerprint, res),
      ),
    );
  }

  /** Runs the handler as the key's holder, then stores its answer or gives the key up. */
  private run(id: string, claimToken: string, res: Response, handled: Observable<unknown>): Observable<unknown> {
    return handled.pipe(
      mergeMap(async (body: unknown) => {
        await this.store(id, claimToken, res.statusCode, { kind: 'body', body, headers: replayedHeaders(res) });
        return body;
      }),
      catchError((error: unknown) =>
        from(this.settleFailure(id, claimToken, error)).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }

  private async settleFailure(id: string, claimToken: string, error: unknown): Promise<void> {
    const rendered = renderException(error);
    if (rendered.status >= 500 || rendered.retryable || rendered.code === ErrorCode.RequestValidationError) {
      await this.keys.release(id, claimToken).catch((err: unknown) => {
        this.log.warn({ err }, 'api.idempotency.release_failed');
      });
      return;
    }
    await this.store(id, claimToken, rendered.status, { kind: 'error', code: rendered.code, detail: rendered.detail });
  }

  /**
   * A store that fails is logged, not raised: the action itself succeeded. The claim then stays in
   * flight until its lease ends, so retries meanwhile get 409 rather than a second execution.
   */
  private async store(id: string, claimToken: string, status: number, response: StoredResponse): Promise<void> {
    try {
      await this.keys.complete(id, claimToken, status, JSON.stringify(response));
    } catch (err) {
      this.log.warn({ err }, 'api.idempotency.store_failed');
    }
  }
}

/** The answer to a retry: 422 for another payload, 409 while in flight, else the stored answer. */
function replay(
  claim: Exclude<IdempotencyClaim, { state: 'claimed' }>,
  fingerprint: string,
  res: Response,
): Observable<unknown> {
  if (claim.fingerprint !== fingerprint) {
    throw new IdempotencyKeyMismatchError();
  }
  if (claim.state === 'in_flight') {
    throw new IdempotencyKeyInFlightError();
  }
  const stored = JSON.parse(claim.response) as StoredResponse;
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.status(claim.statusCode);
  if (stored.kind === 'error') {
    throw new AppError(stored.code, stored.detail, false, { httpStatus: claim.statusCode });
  }
  for (const [name, value] of Object.entries(stored.headers ?? {})) {
    res.setHeader(name, value);
  }
  return of(stored.body);
}

function replayedHeaders(res: Response): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (typeof value === 'string') {
      (headers ??= {})[name] = value;
    }
  }
  return headers;
}
