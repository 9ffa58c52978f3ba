/**
 * The API module. Built with its dependencies passed in (`AppModule.forRoot`), so `main.ts`,
 * the e2e tests and the benchmark wire a real Temporal client, and unit tests a fake one.
 * One global guard authenticates every route not marked `@Public()`.
 */
import { DynamicModule, Inject, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Client } from '@temporalio/client';
import type { RateLimiterMemory } from 'rate-limiter-flexible';
import {
  API_CLOCK,
  API_CONFIG,
  API_KEY_STORE,
  API_METRICS,
  JWT_VERIFIER,
  RATE_LIMITER,
  TEMPORAL_CLIENT,
  UI_PAYLOAD_CODEC,
} from './api/common/api.tokens';
import type { ApiKeyStore } from './api/auth/api-keys';
import { AuthGuard } from './api/auth/auth.guard';
import type { JwtVerifier } from './api/auth/jwt-verifier';
import { AirlineController } from './api/airlines/airline.controller';
import { NotificationController } from './api/airlines/notification.controller';
import { NotificationService } from './api/airlines/notification.service';
import { BatchController } from './api/batches/batch.controller';
import { BatchService } from './api/batches/batch.service';
import { AuthenticationController, AuthenticationReturnController } from './api/bookings/authentication.controller';
import { BookingController } from './api/bookings/booking.controller';
import { AuthenticationReturns } from './api/bookings/authentication-return';
import { AuthenticationService } from './api/bookings/authentication.service';
import { BookingReads } from './api/bookings/booking.reads';
import { BookingService } from './api/bookings/booking.service';
import { ServicingController } from './api/bookings/servicing.controller';
import { ServicingService } from './api/bookings/servicing.service';
import { CodecController, type UiPayloadCodec } from './api/codec/codec.controller';
import { RateLimitGuard } from './api/common/rate-limit.guard';
import type { ApiConfig } from './api/config/api.config';
import { HealthController } from './api/health/health.controller';
import { loadWebhookConfig, type WebhookConfig } from './api/webhooks/webhook.config';
import { WebhookController } from './api/webhooks/webhook.controller';
import { WebhookService } from './api/webhooks/webhook.service';
import { WEBHOOK_CONFIG } from './api/webhooks/webhook.tokens';
import { apiLoggerModule } from './api/observability/api.logging';
import type { ApiMetrics } from './api/observability/api.metrics';
import type { Logger } from './common/observability';

export interface AppDependencies {
  config: ApiConfig;
  /** Temporal client, with the data converter the worker uses (payload encryption). */
  temporalClient: Client;
  /** Codec served at `/codec` for the Web UI. Default: none (the endpoint answers 503). */
  codec?: UiPayloadCodec;
  /** Clock for validation (today's date). Default: `() => new Date()`. */
  clock?: () => Date;
  /** Webhook settings. Default: from the environment (`loadWebhookConfig`). */
  webhooks?: WebhookConfig;
  /** API keys. Default (createApiApp): the keys file of `config.apiKeysFile`, watched; none: API keys are refused. */
  apiKeys?: ApiKeyStore;
  /** JWT verification. Default (createApiApp): from `config.oidc`; none: tokens are refused. */
  jwtVerifier?: JwtVerifier;
  /** Per-agency limiter of POST /bookings and /batches. Default (createApiApp): from the config; none: no limit. */
  rateLimiter?: RateLimiterMemory;
  /**
   * The process logger (pino, secrets redacted): Nest's own logs and the access log go through it
   * (nestjs-pino). Default (createApiApp): JSON on stdout at the level of `config.logLevels`.
   */
  logger?: Logger;
  /** HTTP and intake metrics. Default (createApiApp): a registry of its own, served by nobody. */
  metrics?: ApiMetrics;
}

@Module({})
export class AppModule implements OnApplicationShutdown {
  constructor(@Optional() @Inject(API_KEY_STORE) private readonly keys?: ApiKeyStore) {}

  static forRoot(deps: AppDependencies): DynamicModule {
    const optional = (token: symbol, value: unknown) =>
      value !== undefined ? [{ provide: token, useValue: value }] : [];
    if (deps.logger === undefined) throw new Error('AppModule.forRoot needs a logger (createApiApp gives one)');
    return {
      module: AppModule,
      imports: [apiLoggerModule(deps.logger)],
      controllers: [
        BookingController,
        ServicingController,
        AuthenticationController,
        AuthenticationReturnController,
        BatchController,
        AirlineController,
        NotificationController,
        HealthController,
        CodecController,
        WebhookController,
      ],
      providers: [
        AuthenticationReturns,
        AuthenticationService,
        BookingReads,
        BookingService,
        ServicingService,
        BatchService,
        NotificationService,
        WebhookService,
        { provide: WEBHOOK_CONFIG, useValue: deps.webhooks ?? loadWebhookConfig() },
        RateLimitGuard,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: API_CONFIG, useValue: deps.config },
        { provide: TEMPORAL_CLIENT, useValue: deps.temporalClient },
        { provide: API_CLOCK, useValue: deps.clock ?? (() => new Date()) },
        ...optional(UI_PAYLOAD_CODEC, deps.codec),
        ...optional(API_KEY_STORE, deps.apiKeys),
        ...optional(JWT_VERIFIER, deps.jwtVerifier),
        ...optional(RATE_LIMITER, deps.rateLimiter),
        ...optional(API_METRICS, deps.metrics),
      ],
    };
  }

  /** Stops watching the keys file. */
  onApplicationShutdown(): void {
    this.keys?.close();
  }
}
