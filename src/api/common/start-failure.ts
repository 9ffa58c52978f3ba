/**
 * What a failed workflow start becomes: a namespace without the booking search attributes is
 * `SEARCH_ATTRIBUTES_MISSING` (503) with the readiness probe's message, not an internal error.
 */
import type { Client } from '@temporalio/client';
import {
  isUnknownSearchAttributeError,
  missingSearchAttributes,
  missingSearchAttributesMessage,
} from '../../temporal/search-attributes.check';
import { ApiError } from './api-error';

/** `error` as the API answers it: the search-attribute error, or `error` itself. */
export async function startFailure(client: Client, error: unknown): Promise<unknown> {
  if (!isUnknownSearchAttributeError(error)) return error;
  const missing = await missingSearchAttributes(client.connection, client.options.namespace).catch(() => []);
  if (missing.length === 0) return error;
  return new ApiError('SEARCH_ATTRIBUTES_MISSING', missingSearchAttributesMessage(missing, client.options.namespace), {
    details: { missingSearchAttributes: missing },
    cause: error,
  });
}
