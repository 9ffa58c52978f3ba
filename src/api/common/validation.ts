/**
 * Validation at the edge: a request body against its zod schema, answered with every bad field
 * by path and reason, never with the submitted values (card data must not be echoed).
 */
import type { z } from 'zod/v4';

/** One bad field of a rejected request: its path (`passengers[1].birthdate`) and why. */
export interface FieldError {
  path: string;
  message: string;
}

/** Result of validating a request body. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; fields: FieldError[] };

/** Renders a zod path as `passengers[1].birthdate`; the empty path is `(body)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(body)' : out;
}

/** The issues of `error` as bad fields, their paths under `prefix`. */
export function fieldErrors(error: z.ZodError, prefix: readonly PropertyKey[] = []): FieldError[] {
  return error.issues.map((issue) => ({ path: formatPath([...prefix, ...issue.path]), message: issue.message }));
}

/** Validates `body` with `schema`: the parsed value, or every bad field. */
export function validateWith<S extends z.ZodType>(schema: S, body: unknown): ValidationResult<z.output<S>> {
  const r = schema.safeParse(body);
  return r.success ? { ok: true, value: r.data } : { ok: false, fields: fieldErrors(r.error) };
}
