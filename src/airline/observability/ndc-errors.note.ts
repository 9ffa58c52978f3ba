/**
 * Where the airline's request pipeline notes the NDC errors it answered, for the metrics, the
 * access log and the server span (airline.observability.ts): on the response's `locals`, so
 * nothing global holds request state. No imports, so the pipeline can use it freely.
 */

const NOTE = 'ndcSagaNdcErrors';

/** Express's `res.locals` on any response object. */
function locals(res: object): Record<string, unknown> {
  const r = res as { locals?: Record<string, unknown> };
  r.locals ??= {};
  return r.locals;
}

/** Records the NDC errors an answer carries (business errors with 200, or a 4xx/5xx NDC error document). */
export function noteNdcErrors(res: object, errors: readonly { code?: string }[]): void {
  locals(res)[NOTE] = errors.map((e) => e.code ?? 'unknown');
}

/** The codes noted by {@link noteNdcErrors} (empty when none). */
export function ndcErrorCodesOf(res: object): readonly string[] {
  const codes = (res as { locals?: Record<string, unknown> }).locals?.[NOTE];
  return Array.isArray(codes) ? (codes as string[]) : [];
}
