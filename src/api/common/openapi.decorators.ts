/**
 * OpenAPI helpers: error answers described once, with the problem schema and media type; the
 * bearer security schemes (API key, OIDC access token) on every authenticated controller.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from './api-exception.filter';

/** Security scheme names declared in the OpenAPI document. */
export const API_KEY_SCHEME = 'apiKey';
export const OIDC_SCHEME = 'oidc';
/** HTTP Basic of an airline pushing OrderChangeNotif (POST /airlines/{code}/notifications). */
export const AIRLINE_BASIC_SCHEME = 'airlineBasic';

/** `[status, description]` pairs answered as `application/problem+json`. */
export function ProblemResponses(...answers: [number, string][]) {
  return applyDecorators(
    ...answers.map(([status, description]) =>
      ApiResponse({
        status,
        description,
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
      }),
    ),
  );
}

/** The controller needs a credential: an API key or an OIDC access token, as a bearer token. */
export function Authenticated() {
  return applyDecorators(
    ApiBearerAuth(API_KEY_SCHEME),
    ApiBearerAuth(OIDC_SCHEME),
    ProblemResponses(
      [401, 'No credential, or not a valid one (WWW-Authenticate: Bearer)'],
      [500, 'Internal error'],
      [503, 'Temporal did not answer in time, or its namespace lacks the booking search attributes'],
    ),
  );
}
