/**
 * One place that sets up an API app: JSON body parsing (bodies are never logged), the exception
 * filter, CORS for the Temporal Web UI on `/codec`, and the OpenAPI document at `/docs`.
 * Used by `main.ts`, the e2e tests and the benchmark.
 */
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { HttpRequest as Request, HttpResponse as Response, NextFn as NextFunction } from './api/common/http.types';
import { AppModule, type AppDependencies } from './app.module';
import { bookingIntentJsonSchema } from './api/bookings/booking.dto';
import { ApiExceptionFilter } from './api/common/api-exception.filter';
import type { ApiConfig } from './api/config/api.config';

/** Largest accepted JSON body (a batch of 500 intents fits). */
export const MAX_BODY = '5mb';

/** Builds the API app with its dependencies and configures it (not listening yet). */
export async function createApiApp(deps: AppDependencies): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(deps), {
    bodyParser: false,
    logger: deps.config.logLevels.length === 0 ? false : deps.config.logLevels,
  });
  configureApp(app, deps.config);
  return app;
}

/** Pipes, filters, CORS for `/codec`, swagger at `/docs`. */
export function configureApp(app: NestExpressApplication, config: Pick<ApiConfig, 'codecCorsOrigins'>): void {
  app.use(codecCors(config.codecCorsOrigins));
  app.useBodyParser('json', { limit: MAX_BODY });
  app.useGlobalFilters(new ApiExceptionFilter());
  SwaggerModule.setup('docs', app, () => openApiDocument(app), { jsonDocumentUrl: 'docs/json' });
}

/** The OpenAPI document, with the schemas the decorators reference. */
export function openApiDocument(app: NestExpressApplication): OpenAPIObject {
  const doc = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('ndc-saga booking API')
      .setDescription('Booking intents become durable Temporal sagas against an NDC 17.2 airline. See docs/api.md.')
      .setVersion('1')
      .build(),
  );
  const linkProps = { self: { type: 'string' }, order: { type: 'string' }, approvePrice: { type: 'string' }, cancel: { type: 'string' } };
  const money = { type: 'object', properties: { value: { type: 'string', example: '129.00' }, currency: { type: 'string' } } };
  const bookingError = { type: 'object', properties: { type: { type: 'string' }, message: { type: 'string' }, airlineCode: { type: 'string' } } };
  doc.components = {
    ...doc.components,
    schemas: {
      ...(doc.components?.schemas ?? {}),
      BookingIntent: bookingIntentJsonSchema() as never,
      BookingAccepted: {
        type: 'object',
        properties: {
          id: { type: 'string', example: 'booking:AGENCY1:3f0c-key' },
          status: { type: 'string', enum: ['RUNNING', 'AWAITING_APPROVAL', 'CONFIRMED', 'FAILED', 'CANCELLED'] },
          existing: { type: 'boolean' },
          links: { type: 'object', properties: linkProps },
        },
      },
      BookingView: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { type: 'string', enum: ['RUNNING', 'AWAITING_APPROVAL', 'CONFIRMED', 'FAILED', 'CANCELLED'] },
          currentStep: { type: 'string' },
          steps: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                startedAt: { type: 'string', format: 'date-time' },
                endedAt: { type: 'string', format: 'date-time' },
                attempts: { type: 'integer' },
                outcome: { type: 'string', enum: ['ok', 'failed'] },
              },
            },
          },
          chosenOffer: { type: 'object' },
          pricedTotal: money,
          surcharge: money,
          order: {
            type: 'object',
            properties: { orderId: { type: 'string' }, bookingReference: { type: 'string' }, total: money, status: { type: 'string' } },
          },
          error: bookingError,
          retrieveError: { ...bookingError, description: 'CONFIRMED, but the order could not be read back after its creation' },
          stale: { type: 'string', description: 'Set when no worker answered the state query in time: status from the search attributes only' },
          links: { type: 'object', properties: linkProps },
        },
      },
      BookingList: {
        type: 'object',
        properties: {
          bookings: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                status: { type: 'string' },
                agencyId: { type: 'string' },
                route: { type: 'string' },
                bookingReference: { type: 'string' },
                workflowStatus: { type: 'string' },
                startTime: { type: 'string', format: 'date-time' },
                closeTime: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
      Error: {
        type: 'object',
        properties: {
          statusCode: { type: 'integer' },
          error: { type: 'string' },
          code: { type: 'string' },
          message: { type: 'string' },
          fields: {
            type: 'array',
            items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
          },
        },
      },
    },
  };
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
