/**
 * `X-Request-Id` on every answer: the caller's value when it is sane (1-64 of `A-Z a-z 0-9 _ . : -`,
 * so it fits the NDC CorrelationID it becomes), a fresh UUID otherwise. Error bodies carry it as
 * `requestId`; `POST /bookings` and `POST /batches` pass it to the workflow as the correlation id.
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse, NextFn } from './http.types';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** Request property holding the id. */
export const REQUEST_ID_KEY = 'requestId';
const SANE = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The id to use for a request with this `X-Request-Id` header value. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE.test(header) ? header : randomUUID();
}

export function requestIdMiddleware(req: HttpRequest, res: HttpResponse, next: NextFn): void {
  // An id already chosen for this request (by the access logger) is kept.
  const id = requestIdOf(req) ?? requestIdFrom(req.headers['x-request-id']);
  (req as unknown as Record<string, unknown>)[REQUEST_ID_KEY] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
}

/** The request id set by {@link requestIdMiddleware} (undefined outside an HTTP request). */
export function requestIdOf(req: unknown): string | undefined {
  const v = (req as Record<string, unknown> | undefined)?.[REQUEST_ID_KEY];
  return typeof v === 'string' ? v : undefined;
}

/** `@RequestId()`: the request's id (see {@link requestIdMiddleware}). */
export const RequestId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const req = ctx.switchToHttp().getRequest<unknown>();
  return requestIdOf(req) ?? randomUUID();
});
