/**
 * `npm run airline`: the airline retail service alone. Configuration from the
 * environment (see docs/airline-service.md); exits with a message naming the
 * variable when it is invalid.
 */
import 'reflect-metadata';
import { AirlineConfigError, loadAirlineConfig } from './airline.config';
import { createAirlineApp } from './airline.module';

async function main(): Promise<void> {
  let config;
  try {
    config = loadAirlineConfig();
  } catch (err) {
    if (err instanceof AirlineConfigError) {
      process.stderr.write(`airline: invalid configuration: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const app = await createAirlineApp(config);
  app.enableShutdownHooks();
  await app.listen(config.port);
  process.stdout.write(
    `airline ${config.airlineCode} listening on ${await app.getUrl()} (retail /retail, payment /payment/tokens, db ${config.dbPath})\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`airline: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
