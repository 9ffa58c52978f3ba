/**
 * Registers the booking search attributes on a cluster that does not have them (any cluster
 * other than the embedded dev server, which registers them at start-up). Idempotent.
 */
import { Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { missingSearchAttributes } from './search-attributes.check';

/** temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD (every booking attribute is a Keyword). */
const INDEXED_VALUE_TYPE_KEYWORD = 2;

/**
 * Adds the missing booking search attributes to `namespace` through the operator service and
 * returns the names it added (none when all exist). `target` is a connection or a `host:port`
 * (plain text; use a connection for TLS clusters).
 */
export async function registerSearchAttributes(
  target: Connection | NativeConnection | string,
  namespace = 'default',
): Promise<string[]> {
  const connection = typeof target === 'string' ? await Connection.connect({ address: target }) : target;
  try {
    const missing = await missingSearchAttributes(connection, namespace);
    if (missing.length === 0) return [];
    type AddRequest = Parameters<Connection['operatorService']['addSearchAttributes']>[0];
    const searchAttributes = Object.fromEntries(
      missing.map((name) => [name, INDEXED_VALUE_TYPE_KEYWORD]),
    ) as AddRequest['searchAttributes'];
    try {
      await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
    } catch (error) {
      // A concurrent registration may have won the race; anything else is a real error.
      if (!/already exists/i.test((error as Error).message)) throw error;
    }
    return missing;
  } finally {
    if (typeof target === 'string') await connection.close();
  }
}
