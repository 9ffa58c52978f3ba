/** The problem bodies (RFC 9457) the API answers, spelled out for exact assertions. */

/** HTTP reason phrases, the `title` of a problem. */
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
};

/**
 * The whole body of a problem answered at `instance`: `type` is `urn:ndc-saga:problem:` and the
 * code in lower case with dashes (written out here rather than imported, so a change to it fails
 * the specs), `title` the status's reason phrase; `extra` adds members (`fields`, `id`, ...).
 */
export function problemBody(
  status: number,
  code: string,
  detail: string,
  instance: string,
  requestId: string | null | undefined,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const type = `urn:ndc-saga:problem:${code.toLowerCase().replace(/_/g, '-')}`;
  return { type, title: TITLES[status], status, detail, instance, code, requestId, ...extra };
}

/** The 422 of an Idempotency-Key sent again with another body; `id` is what the first request created. */
export function keyReusedProblem(instance: string, requestId: string | null | undefined, id: string) {
  const detail = 'This Idempotency-Key was already used for a different request';
  return problemBody(422, 'IDEMPOTENCY_KEY_REUSED', detail, instance, requestId, { id });
}
