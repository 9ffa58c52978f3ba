/** Settings shared by every airline app (main.ts, e2e tests, orchestrator tests). */
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AirlineConfig } from '../airline.config';
import { AirlineExceptionFilter } from './airline-exception.filter';
import { installDirectRoutes } from './direct-route';
import { NdcPipeline } from './ndc-pipeline';
import { KEEP_ALIVE_SECONDS } from './reply';
import { RetailController } from './retail.controller';

/**
 * Global filter, Express settings and keep-alive; with `directRoutes` (the
 * default) `POST /retail/offers` is served ahead of Express (see direct-route.ts).
 */
export function configureAirlineApp(app: INestApplication, config: AirlineConfig, options: { directRoutes?: boolean } = {}): void {
  const filter = new AirlineExceptionFilter(`${config.airlineCode} NDC retail`);
  app.useGlobalFilters(filter);
  const express = app.getHttpAdapter().getInstance() as { disable(setting: string): void };
  express.disable('x-powered-by');
  express.disable('etag');
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000;
  // Must exceed keepAliveTimeout so a slow request on a reused connection is not cut.
  server.headersTimeout = (KEEP_ALIVE_SECONDS + 5) * 1000;
  if (options.directRoutes ?? true) {
    installDirectRoutes(server, [{ path: '/retail/offers', route: app.get(RetailController).offersRoute }], {
      config,
      pipeline: app.get(NdcPipeline),
      filter,
    });
  }
}
