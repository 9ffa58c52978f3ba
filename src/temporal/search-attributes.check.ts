/**
 * Whether a namespace has the booking search attributes. Without them every booking start fails
 * (the server rejects a start that sets an unknown attribute), so the API's and the worker's
 * readiness check them, and the API answers 503 with {@link missingSearchAttributesMessage}.
 */
import type { Connection } from '@temporalio/client';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS } from './search-attributes';

/** The command that registers the missing attributes (docs/operations.md, "Search attributes"). */
export const REGISTER_SEARCH_ATTRIBUTES_COMMAND = 'npm run temporal:search-attributes';

/** What the check needs of a connection: a client `Connection` or a worker `NativeConnection`. */
export interface SearchAttributeLister {
  readonly operatorService: Pick<Connection['operatorService'], 'listSearchAttributes'>;
}

/** The booking search attributes `namespace` lacks, in registration order (none: `[]`). */
export async function missingSearchAttributes(connection: SearchAttributeLister, namespace: string): Promise<string[]> {
  const listed = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set([...Object.keys(listed.customAttributes ?? {}), ...Object.keys(listed.systemAttributes ?? {})]);
  return BOOKING_SEARCH_ATTRIBUTE_KEYS.filter((key) => !known.has(key.name)).map((key) => key.name);
}

/** What an operator reads when attributes are missing: which ones, and how to register them. */
export function missingSearchAttributesMessage(missing: readonly string[], namespace: string): string {
  return (
    `Temporal namespace "${namespace}" lacks the booking search attribute${missing.length > 1 ? 's' : ''} ` +
    `${missing.join(', ')}: bookings cannot start. Register ${missing.length > 1 ? 'them' : 'it'} with ` +
    `\`${REGISTER_SEARCH_ATTRIBUTES_COMMAND}\` (same TEMPORAL_* environment), or for each with ` +
    `\`temporal operator search-attribute create --namespace ${namespace} --name <name> --type Keyword\`, ` +
    'or set TEMPORAL_REGISTER_SEARCH_ATTRIBUTES=true on a worker whose credentials may.'
  );
}

/** Result of {@link probeSearchAttributes}, as the readiness reports show it. */
export interface SearchAttributeHealth {
  /**
   * `up`: all registered; `down`: some missing (`missing`, `error` says what to do);
   * `unchecked`: the server refused the listing (e.g. no operator permission), readiness is not failed.
   */
  status: 'up' | 'down' | 'unchecked';
  missing?: string[];
  error?: string;
}

/** gRPC status codes meaning the namespace's attributes cannot be listed with these credentials. */
const UNLISTABLE_CODES = new Set([7 /* PERMISSION_DENIED */, 12 /* UNIMPLEMENTED */]);

/**
 * Checks the attributes; a connection failure is thrown (the Temporal probe reports it), a refused
 * listing is `unchecked`.
 */
export async function probeSearchAttributes(
  connection: SearchAttributeLister,
  namespace: string,
): Promise<SearchAttributeHealth> {
  let missing: string[];
  try {
    missing = await missingSearchAttributes(connection, namespace);
  } catch (error) {
    const code = (error as { code?: number }).code;
    if (code !== undefined && UNLISTABLE_CODES.has(code))
      return { status: 'unchecked', error: (error as Error).message };
    throw error;
  }
  if (missing.length === 0) return { status: 'up' };
  return { status: 'down', missing, error: missingSearchAttributesMessage(missing, namespace) };
}

/**
 * True when `error` (a failed workflow start, with its causes) is the server refusing a search
 * attribute the namespace does not have.
 */
export function isUnknownSearchAttributeError(error: unknown): boolean {
  let e = error as { message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; depth < 5 && e !== undefined && e !== null; depth += 1) {
    if (typeof e.message === 'string' && /search attribute/i.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}
