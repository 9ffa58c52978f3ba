/**
 * Reading a process's environment with one zod schema: read once at start, and an invalid value
 * fails fast with an error naming the variable (`TEMPORAL_ADDRESS: must be host:port ...`).
 */
import type { z } from 'zod/v4';

/**
 * An invalid environment variable: the message names it (`VARIABLE: reason`). Each process's
 * configuration has its own subclass with a stable `code`.
 */
export class EnvConfigError extends Error {
  constructor(
    readonly code: string,
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
  }
}

/**
 * The variables of `env` that are set: unset, empty and blank values are left out, so that the
 * schema's default (or `optional()`) applies to them.
 */
export function setVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && value.trim() !== '') set[name] = value;
  return set;
}

/**
 * Parses the set variables of `env` with `schema`; the first issue becomes `fail(variable, reason)`
 * (the variable is the issue's first path element: object-level checks put theirs on a variable).
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv,
  fail: (variable: string, reason: string) => Error,
): z.output<S> {
  const r = schema.safeParse(setVariables(env));
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw fail(String(issue.path[0] ?? '(environment)'), issue.message);
}
