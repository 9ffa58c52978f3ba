/**
 * One place that sets up an API app: `X-Request-Id` on every answer, JSON body parsing (bodies
 * are never logged), the problem+json exception filter, CORS for the Temporal Web UI on `/codec`,
 * and the OpenAPI document at `/docs`. Authentication is the global guard of `AppModule`.
 * Used by `main.ts`, the e2e tests and the benchmark.
 */
import { Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { HttpRequest as Request, HttpResponse as Response, NextFn as NextFunction } from './api/common/http.types';
import { AppModule, type AppDependencies } from './app.module';
import { ApiKeyStore } from './api/auth/api-keys';
import { JwtVerifier } from './api/auth/jwt-verifier';
import { openApiComponentSchemas } from './api/openapi';
import { ApiExceptionFilter } from './api/common/api-exception.filter';
import { AIRLINE_BASIC_SCHEME, API_KEY_SCHEME, OIDC_SCHEME } from './api/common/openapi.decorators';
import { createRateLimiter } from './api/common/rate-limit.guard';
import { requestIdMiddleware } from './api/common/request-id';
import type { ApiConfig } from './api/config/api.config';
import { apiHttpMetrics, createApiMetrics, type ApiMetrics } from './api/observability/api.metrics';
import { QUIET_PATHS } from './api/observability/api.logging';
import { createLogger, httpServerSpans, nestLoggerFor, pinoLevelOfNestLevels } from './common/observability';

/** Largest accepted JSON body (a batch of 500 intents fits). */
export const MAX_BODY = '5mb';

/**
 * Builds the API app with its dependencies and configures it (not listening yet). Credentials
 * and the rate limiter not given in `deps` come from `deps.config`: the keys file (watched for
 * changes), the OIDC issuer's JWKS, RATE_LIMIT_*. Logs go through `deps.logger` (default: JSON on
 * stdout at the level of `config.logLevels`), HTTP and intake metrics into `deps.metrics`
 * (default: a registry nobody serves; `startApi` passes the one it serves on API_METRICS_PORT).
 */
export async function createApiApp(deps: AppDependencies): Promise<NestExpressApplication> {
  const { config } = deps;
  const authLogger = new Logger('Auth');
  let apiKeys = deps.apiKeys;
  if (apiKeys === undefined && config.apiKeysFile !== undefined) {
    apiKeys = new ApiKeyStore(config.apiKeysFile, (message) =>
      authLogger.error(`keys file not reloaded, previous keys kept: ${message}`),
    );
    apiKeys.watch();
  }
  const jwtVerifier = deps.jwtVerifier ?? (config.oidc !== undefined ? new JwtVerifier(config.oidc) : undefined);
  const rateLimiter = deps.rateLimiter ?? createRateLimiter(config.rateLimitPoints, config.rateLimitWindowS);
  const logger = deps.logger ?? createLogger({ service: 'api', level: pinoLevelOfNestLevels(config.logLevels) });
  const metrics = deps.metrics ?? createApiMetrics();
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ ...deps, apiKeys, jwtVerifier, rateLimiter, logger, metrics }),
    { bodyParser: false, bufferLogs: true },
  );
  app.useLogger(nestLoggerFor(logger));
  configureApp(app, config, metrics);
  return app;
}

/**
 * Request ids, HTTP metrics (into `metrics` when given), body limit, a server span per request
 * (after the body is read, so the handler runs inside it), filter, CORS for `/codec`, swagger at
 * `/docs`.
 */
export function configureApp(
  app: NestExpressApplication,
  config: Pick<ApiConfig, 'codecCorsOrigins'>,
  metrics?: ApiMetrics,
): void {
  app.use(requestIdMiddleware);
  if (metrics !== undefined) app.use(apiHttpMetrics(metrics));
  app.use(codecCors(config.codecCorsOrigins));
  // Airline notifications are read by their route, after their credential is checked.
  app.useBodyParser('json', { limit: MAX_BODY, type: parsedUnlessNotification('application/json') });
  // Issuers that POST the browser back to the 3-D Secure return endpoint send a form.
  app.useBodyParser('urlencoded', {
    limit: MAX_BODY,
    extended: false,
    type: parsedUnlessNotification('application/x-www-form-urlencoded'),
  });
  app.use(httpServerSpans({ skip: (req) => QUIET_PATHS.includes((req.url ?? '').split('?')[0]!) }));
  app.useGlobalFilters(new ApiExceptionFilter());
  // `/docs` and `/docs/json` are served by swagger-ui-express ahead of the Nest router, so they are
  // public by construction: the document describes the API, it holds no data.
  SwaggerModule.setup('docs', app, () => openApiDocument(app), { jsonDocumentUrl: 'docs/json' });
}

/** `POST /airlines/{code}/notifications`: its body is read by its handler, never by a parser. */
const NOTIFICATION_PATH = /^\/airlines\/[^/?]+\/notifications\/?(?:\?|$)/;

/** A body parser's `type` test: bodies of `mediaType`, except on the notification route. */
function parsedUnlessNotification(mediaType: string) {
  return (req: IncomingMessage): boolean =>
    !NOTIFICATION_PATH.test(req.url ?? '') &&
    (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === mediaType;
}

/** The OpenAPI document: routes from the decorators, component schemas derived from zod, bearer security schemes. */
export function openApiDocument(app: NestExpressApplication): OpenAPIObject {
  const doc = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('ndc-saga booking API')
      .setDescription(
        'Booking intents become durable Temporal sagas against an NDC 17.2 airline. Every route but /health needs ' +
          '`Authorization: Bearer <API key or OIDC access token>` (an airline pushing notifications: HTTP Basic); errors are RFC 9457 problems. See docs/api.md.',
      )
      .setVersion('1')
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'nsk_<id>_<secret>',
          description: 'API key (npm run keys -- create)',
        },
        API_KEY_SCHEME,
      )
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'OIDC / OAuth2 access token' },
        OIDC_SCHEME,
      )
      .addBasicAuth(
        {
          type: 'http',
          scheme: 'basic',
          description: "An airline's notification credential (its profile's notifications)",
        },
        AIRLINE_BASIC_SCHEME,
      )
      .build(),
  );
  const schemas = openApiComponentSchemas() as NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>;
  doc.components = { ...doc.components, schemas: { ...(doc.components?.schemas ?? {}), ...schemas } };
  return doc;
}

/**
 * CORS for the Temporal Web UI calling `/codec/*` from the browser: allowed origins only, with
 * the headers the UI sends (X-Namespace, Authorization) and credentials.
 */
export function codecCors(origins: readonly string[]) {
  const allowed = new Set(origins);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!req.path.startsWith('/codec')) return next();
    const origin = req.headers.origin;
    if (origin !== undefined && allowed.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
