/**
 * `npm run temporal:search-attributes` (in the image: `node dist/src/temporal/search-attributes.command.js`):
 * registers the booking search attributes the namespace of TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE
 * lacks (TLS and API key settings as for the worker), and says which it added. Idempotent.
 */
import { registerSearchAttributes } from './search-attributes.registration';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS } from './search-attributes';
import { loadTemporalConfig } from './temporal.config';
import { createTemporalConnection } from './temporal.connection';

/** Registers what is missing; returns the line to print. */
export async function runSearchAttributesCommand(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const config = loadTemporalConfig(env);
  const connection = await createTemporalConnection(config);
  try {
    const added = await registerSearchAttributes(connection, config.namespace);
    const all = BOOKING_SEARCH_ATTRIBUTE_KEYS.map((key) => key.name).join(', ');
    return added.length === 0
      ? `namespace ${config.namespace} on ${config.address} has every booking search attribute (${all})`
      : `namespace ${config.namespace} on ${config.address}: registered ${added.join(', ')} (Keyword)`;
  } finally {
    await connection.close();
  }
}

if (require.main === module) {
  runSearchAttributesCommand().then(
    (line) => process.stdout.write(`${line}\n`),
    (error: unknown) => {
      process.stderr.write(`temporal:search-attributes: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
