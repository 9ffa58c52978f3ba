/**
 * Registers the booking search attributes on a cluster that does not have them (any cluster
 * other than the embedded dev server, which registers them at start-up). Idempotent.
 */
import { Connection } from '@temporalio/client';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS } from './search-attributes';

/** temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD (every booking attribute is a Keyword). */
const INDEXED_VALUE_TYPE_KEYWORD = 2;

/**
 * Adds the missing booking search attributes to `namespace` through the operator service and
 * returns the names it added (none when all exist). `target` is a connection or a `host:port`
 * (plain text; use a connection for TLS clusters).
 */
export async function registerSearchAttributes(target: Connection | string, namespace = 'default'): Promise<string[]> {
  const connection = typeof target === 'string' ? await Connection.connect({ address: target }) : target;
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const known = new Set([
      ...Object.keys(existing.customAttributes ?? {}),
      ...Object.keys(existing.systemAttributes ?? {}),
    ]);
    const missing = BOOKING_SEARCH_ATTRIBUTE_KEYS.filter((key) => !known.has(key.name));
    if (missing.length === 0) return [];
    type AddRequest = Parameters<Connection['operatorService']['addSearchAttributes']>[0];
    const searchAttributes = Object.fromEntries(
      missing.map((key) => [key.name, INDEXED_VALUE_TYPE_KEYWORD]),
    ) as AddRequest['searchAttributes'];
    try {
      await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
    } catch (error) {
      // A concurrent registration may have won the race; anything else is a real error.
      if (!/already exists/i.test((error as Error).message)) throw error;
    }
    return missing.map((key) => key.name);
  } finally {
    if (typeof target === 'string') await connection.close();
  }
}
