/**
 * The airline retail service as a Nest application: `AirlineModule.forRoot`
 * wires configuration, the SQLite store, the world, tokens, orders and the
 * fault simulator; {@link createAirlineApp} builds a ready-to-listen app, used
 * by `main.ts`, the e2e tests and the orchestrator's tests.
 */
import 'reflect-metadata';
import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  type INestApplication,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AirlineConfig } from './airline.config';
import type { AirlineClock } from './airline.ports';
import { AIRLINE_CLOCK, AIRLINE_CONFIG, AIRLINE_WORLD } from './airline.tokens';
import { FaultRunner } from './faults/fault-runner';
import { FaultService } from './faults/faults.service';
import { configureAirlineApp } from './http/airline.app';
import { BasicAuthGuard } from './http/basic-auth.guard';
import { FaultsController } from './http/faults.controller';
import { HealthController } from './http/health.controller';
import { NdcPipeline } from './http/ndc-pipeline';
import { PaymentController } from './http/payment.controller';
import { RetailController } from './http/retail.controller';
import { RetailService } from './http/retail.service';
import { ShoppingCache } from './http/shopping-cache';
import { OrdersService } from './orders/orders.service';
import { AirlineStore } from './store/airline.store';
import { OfferPriceService } from './offer-price/offer-price.service';
import { ShoppingService } from './shopping/shopping.service';
import { TokenService } from './tokens/tokens.service';
import { type World, loadWorld } from './world/world';

/** Options of {@link createAirlineApp} besides the configuration. */
export interface AirlineAppOptions {
  /** Source of time (default: the system clock). Tests move it. */
  clock?: AirlineClock;
  /** The airline's world (default: `data/airline/world.json` loaded for `config.airlineCode`). */
  world?: World;
  /**
   * Serve `POST /retail/offers` ahead of Express's router (default true; same
   * answers, less overhead per search; see http/direct-route.ts).
   */
  directRoutes?: boolean;
}

export const systemClock: AirlineClock = { now: () => new Date() };

/** Releases held fault responses before the server closes, and closes the database after. */
@Injectable()
class AirlineLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(FaultRunner) private readonly faults: FaultRunner,
    @Inject(AirlineStore) private readonly store: AirlineStore,
  ) {}

  beforeApplicationShutdown(): void {
    this.faults.releaseAll();
  }

  onApplicationShutdown(): void {
    this.store.close();
  }
}

@Module({})
export class AirlineModule {
  static forRoot(config: AirlineConfig, options: AirlineAppOptions = {}): DynamicModule {
    const clock = options.clock ?? systemClock;
    return {
      module: AirlineModule,
      controllers: [
        HealthController,
        RetailController,
        PaymentController,
        ...(config.production ? [] : [FaultsController]),
      ],
      providers: [
        { provide: AIRLINE_CONFIG, useValue: config },
        { provide: AIRLINE_CLOCK, useValue: clock },
        { provide: AirlineStore, useFactory: () => new AirlineStore(config.dbPath) },
        { provide: FaultService, useValue: new FaultService() },
        { provide: FaultRunner, useFactory: (f: FaultService) => new FaultRunner(f), inject: [FaultService] },
        {
          provide: TokenService,
          useFactory: (store: AirlineStore) => new TokenService(store, clock, config.vaultKey),
          inject: [AirlineStore],
        },
        { provide: AIRLINE_WORLD, useFactory: () => options.world ?? loadWorld(undefined, config.airlineCode) },
        {
          provide: OrdersService,
          useFactory: (store: AirlineStore, world: World) =>
            new OrdersService(store, world, clock, { airlineCode: config.airlineCode, portalUrl: config.portalUrl }),
          inject: [AirlineStore, AIRLINE_WORLD],
        },
        {
          provide: RetailService,
          useFactory: (store: AirlineStore, world: World, orders: OrdersService) =>
            new RetailService(
              new ShoppingService(world, store, store, clock),
              new OfferPriceService(world, store, store, store, clock),
              orders,
            ),
          inject: [AirlineStore, AIRLINE_WORLD, OrdersService],
        },
        {
          provide: NdcPipeline,
          useFactory: (faults: FaultRunner) => new NdcPipeline(config, clock, faults),
          inject: [FaultRunner],
        },
        {
          provide: ShoppingCache,
          useFactory: (store: AirlineStore) => new ShoppingCache(store, clock),
          inject: [AirlineStore],
        },
        BasicAuthGuard,
        AirlineLifecycle,
      ],
    };
  }
}

/**
 * Builds the airline application for `config` (not yet listening): call
 * `await app.listen(port)` and, when done, `await app.close()` (closes the
 * database). The server keeps idle connections 60 s.
 */
export async function createAirlineApp(config: AirlineConfig, options: AirlineAppOptions = {}): Promise<INestApplication> {
  const app = await NestFactory.create(AirlineModule.forRoot(config, options), {
    bodyParser: false,
    logger: config.logLevels,
    forceCloseConnections: true,
    abortOnError: false,
  });
  configureAirlineApp(app, config, { directRoutes: options.directRoutes });
  return app;
}
