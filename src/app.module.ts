/**
 * The API module. Built with its dependencies passed in (`AppModule.forRoot`), so `main.ts`,
 * the e2e tests and the benchmark wire a real Temporal client, and unit tests a fake one.
 */
import { DynamicModule, Module } from '@nestjs/common';
import type { Client } from '@temporalio/client';
import { API_CLOCK, API_CONFIG, TEMPORAL_CLIENT, UI_PAYLOAD_CODEC } from './api/api.tokens';
import { BatchController } from './api/batches/batch.controller';
import { BatchService } from './api/batches/batch.service';
import { BookingController } from './api/bookings/booking.controller';
import { BookingService } from './api/bookings/booking.service';
import { CodecController, type UiPayloadCodec } from './api/codec/codec.controller';
import type { ApiConfig } from './api/config/api.config';
import { HealthController } from './api/health/health.controller';
import { loadWebhookConfig, type WebhookConfig } from './api/webhooks/webhook.config';
import { WebhookController } from './api/webhooks/webhook.controller';
import { WebhookService } from './api/webhooks/webhook.service';
import { WEBHOOK_CONFIG } from './api/webhooks/webhook.tokens';

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
}

@Module({})
export class AppModule {
  static forRoot(deps: AppDependencies): DynamicModule {
    return {
      module: AppModule,
      controllers: [BookingController, BatchController, HealthController, CodecController, WebhookController],
      providers: [
        BookingService,
        BatchService,
        WebhookService,
        { provide: WEBHOOK_CONFIG, useValue: deps.webhooks ?? loadWebhookConfig() },
        { provide: API_CONFIG, useValue: deps.config },
        { provide: TEMPORAL_CLIENT, useValue: deps.temporalClient },
        { provide: API_CLOCK, useValue: deps.clock ?? (() => new Date()) },
        ...(deps.codec !== undefined ? [{ provide: UI_PAYLOAD_CODEC, useValue: deps.codec }] : []),
      ],
    };
  }
}
