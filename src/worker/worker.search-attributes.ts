/**
 * The worker's start-up check of the booking search attributes: with
 * TEMPORAL_REGISTER_SEARCH_ATTRIBUTES=true it registers the missing ones, otherwise it logs what
 * is missing and how to register it (readiness then fails with the same message).
 */
import type { NativeConnection } from '@temporalio/worker';
import type { Logger } from '../common/observability';
import { probeSearchAttributes } from '../temporal/search-attributes.check';
import { registerSearchAttributes } from '../temporal/search-attributes.registration';

/** Checks (and, when `register`, registers) the attributes; never throws (readiness reports). */
export async function prepareSearchAttributes(
  connection: NativeConnection,
  namespace: string,
  register: boolean,
  logger: Logger,
): Promise<void> {
  try {
    if (register) {
      const added = await registerSearchAttributes(connection, namespace);
      if (added.length > 0)
        logger.info({ namespace, added }, `worker: registered search attributes ${added.join(', ')}`);
      return;
    }
    const attributes = await probeSearchAttributes(connection, namespace);
    if (attributes.status === 'down') logger.error({ namespace, missing: attributes.missing }, attributes.error);
    if (attributes.status === 'unchecked')
      logger.warn({ namespace }, `worker: booking search attributes not checked: ${attributes.error ?? ''}`);
  } catch (error) {
    logger.error({ namespace, err: error }, `worker: booking search attributes: ${(error as Error).message}`);
  }
}
