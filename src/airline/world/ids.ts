import { randomUUID } from 'node:crypto';

/** Source of new response ids (injected so tests get stable ids). */
export interface IdSource {
  /** A new id starting with `prefix`; letters, digits and `-` only, so it is a valid XML NCName. */
  next(prefix: string): string;
}

/** Random ids: `prefix` + 20 upper-case hex digits of a UUID v4. */
export const randomIds: IdSource = {
  next: (prefix) => prefix + randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase(),
};

/** Sequential ids `prefix0001`, `prefix0002`, ... for tests. */
export function sequentialIds(): IdSource {
  let n = 0;
  return { next: (prefix) => `${prefix}${String(++n).padStart(4, '0')}` };
}
