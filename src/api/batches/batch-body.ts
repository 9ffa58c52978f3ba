/**
 * The two forms of a `POST /batches` body: a JSON array of intents (a plain batch), or
 * `{"intents": [...], "atomic": true}` (all or nothing, docs/api.md "Batches").
 */
import type { FieldError } from '../common/validation';

export type BatchBody =
  { ok: true; intents: unknown; atomic: boolean; wrapped: boolean } | { ok: false; fields: FieldError[] };

/** Splits a body into its intents (validated later) and the `atomic` flag. */
export function splitBatchBody(body: unknown): BatchBody {
  if (Array.isArray(body)) return { ok: true, intents: body, atomic: false, wrapped: false };
  if (body === null || typeof body !== 'object') {
    return {
      ok: false,
      fields: [
        { path: '(body)', message: 'must be a JSON array of booking intents, or {"intents": [...], "atomic": true}' },
      ],
    };
  }
  const { intents, atomic, ...rest } = body as Record<string, unknown>;
  const fields: FieldError[] = Object.keys(rest).map((key) => ({ path: key, message: 'unknown field' }));
  if (atomic !== undefined && typeof atomic !== 'boolean')
    fields.push({ path: 'atomic', message: 'must be true or false' });
  if (intents === undefined) fields.push({ path: 'intents', message: 'is required' });
  if (fields.length > 0) return { ok: false, fields };
  return { ok: true, intents, atomic: atomic === true, wrapped: true };
}
