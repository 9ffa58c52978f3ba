/**
 * The route decorators every intake shares: a POST that submits an agency's work and answers
 * 202 Accepted (bookings, batches).
 */
import { applyDecorators, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ProblemResponses } from './openapi.decorators';
import { RateLimitGuard } from './rate-limit.guard';

export interface IntakeRouteOptions {
  /** The operation's summary. */
  summary: string;
  /** What the Idempotency-Key header (optional, per agency) does on this route. */
  idempotencyKey: string;
  /** The 202 answer: its description and the component schema of its body. */
  accepted: { description: string; schema: string };
  /** The route's own problem answers (400, 403, ...); 413, 422 and 429 are added. */
  problems: [number, string][];
}

/**
 * `POST` answering 202, rate limited per agency (RateLimitGuard), with an optional
 * Idempotency-Key and the problem answers of every intake: body too large, key reused, rate limit.
 */
export function IntakeRoute(options: IntakeRouteOptions) {
  return applyDecorators(
    Post(),
    HttpCode(202),
    UseGuards(RateLimitGuard),
    ApiOperation({ summary: options.summary }),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: options.idempotencyKey }),
    ApiResponse({
      status: 202,
      description: options.accepted.description,
      schema: { $ref: `#/components/schemas/${options.accepted.schema}` },
    }),
    ProblemResponses(
      ...options.problems,
      [413, 'Body over 5 MB'],
      [422, 'Idempotency-Key reused with a different body'],
      [429, 'Rate limit of the agency reached (Retry-After)'],
    ),
  );
}
