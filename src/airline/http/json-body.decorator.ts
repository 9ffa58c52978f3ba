/**
 * `@JsonBody()`: the JSON body of the payment and simulator endpoints, read by
 * Express's body parser (see airline.app.ts) and parsed here. Refusals name
 * no value of the body, which is never logged.
 */
import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { ExpressRequest } from './express.types';
import { JsonHttpError } from './ndc-http.error';

export const JSON_TYPES = ['application/json', 'application/*+json'];

/** The parsed JSON body; 415 for another media type, 400 for a body that is not JSON. */
export function parseJsonBody(req: ExpressRequest): unknown {
  if (!req.is(JSON_TYPES) || typeof req.body !== 'string') {
    throw new JsonHttpError(415, 'Unsupported Media Type: send application/json');
  }
  try {
    return JSON.parse(req.body) as unknown;
  } catch {
    throw new JsonHttpError(400, 'Bad Request: the body is not valid JSON');
  }
}

export const JsonBody = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  parseJsonBody(ctx.switchToHttp().getRequest()),
);
