/** Settings shared by every airline app (main.ts, e2e tests, orchestrator tests). */
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AirlineConfig } from '../airline.config';
import { AirlineExceptionFilter } from './airline-exception.filter';
import { KEEP_ALIVE_SECONDS } from './reply';

export function configureAirlineApp(app: INestApplication, config: AirlineConfig): void {
  app.useGlobalFilters(new AirlineExceptionFilter(`${config.airlineCode} NDC retail`));
  const express = app.getHttpAdapter().getInstance() as { disable(setting: string): void };
  express.disable('x-powered-by');
  express.disable('etag');
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000;
  // Must exceed keepAliveTimeout so a slow request on a reused connection is not cut.
  server.headersTimeout = (KEEP_ALIVE_SECONDS + 5) * 1000;
}
