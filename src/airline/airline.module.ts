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
  Inject,
  Injectable,
  Logger as NestLogger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AirlineConfig } from './airline.config';
import type { AirlineClock } from './airline.ports';
import { AIRLINE_CLOCK, AIRLINE_CONFIG, AIRLINE_WORLD, RETAIL_DOMAIN } from './airline.tokens';
import { FaultRunner } from './faults/fault-runner';
import { FaultService, TOKEN_OPERATION } from './faults/faults.service';
import { configureAirlineApp } from './http/airline.app';
import { AuthenticationService } from './authentication/authentication.service';
import { AcsController } from './http/acs.controller';
import { BasicAuthGuard } from './http/basic-auth.guard';
import { FaultsController } from './http/faults.controller';
import { ScheduleChangesController } from './http/schedule-changes.controller';
import { ChangeDeadlines } from './schedule/change-deadlines';
import { NotificationOutbox } from './schedule/notification-outbox';
import { ScheduleChangeService } from './schedule/schedule-changes';
import { HealthController } from './http/health.controller';
import { NdcExchangeInterceptor } from './http/ndc-exchange';
import { NdcMessages } from './http/ndc-messages';
import { PaymentController } from './http/payment.controller';
import { RetailController } from './http/retail.controller';
import { RETAIL_OPERATION_NAMES, type RetailDomain, releaseLapsed } from './http/retail.operations';
import { OrdersService } from './orders/orders.service';
import { DeadlineJob } from './servicing/deadline-job';
import { HoldExpiry, type ExpiryNotices } from './servicing/hold-expiry';
import { OrderBook } from './servicing/order-book';
import { OrderChangeService } from './servicing/order-change.service';
import { OrderExtras } from './servicing/order-extras';
import { ReshopService } from './servicing/reshop.service';
import { AirlineStore } from './store/airline.store';
import { OfferPriceService } from './offer-price/offer-price.service';
import { ExtrasService } from './extras/extras.service';
import { ShoppingService } from './shopping/shopping.service';
import { TokenService } from './tokens/tokens.service';
import { type World, loadWorld } from './world/world';
import { createLogger, nestLoggerFor, pinoLevelOfNestLevels, type Logger } from '../common/observability';
import {
  airlineLoggerModule,
  airlineRequestMetrics,
  airlineServerSpans,
  createAirlineMetrics,
  type AirlineMetrics,
} from './observability/airline.observability';

/** Options of {@link createAirlineApp} besides the configuration. */
export interface AirlineAppOptions {
  /** Source of time (default: the system clock). Tests move it. */
  clock?: AirlineClock;
  /** The airline's world (default: `data/airline/world.json` loaded for `config.airlineCode`). */
  world?: World;
  /**
   * The process logger (pino, secrets redacted): Nest's logs and the access log (nestjs-pino) go
   * through it. Default: JSON on stdout at the level of `config.logLevels` (AIRLINE_LOG).
   */
  logger?: Logger;
  /** Request metrics. Default: a registry of its own that nobody serves (main.ts serves its own). */
  metrics?: AirlineMetrics;
}

export const systemClock: AirlineClock = { now: () => new Date() };

/**
 * Starts the durable jobs (held orders expiring, schedule change deadlines, notifications pushed: a
 * restart after a deadline acts at start); stops them and releases held fault responses before the
 * server closes, and closes the database after.
 */
@Injectable()
class AirlineLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(FaultRunner) private readonly faults: FaultRunner,
    @Inject(AirlineStore) private readonly store: AirlineStore,
    @Inject(RETAIL_DOMAIN) private readonly services: AirlineServices,
  ) {}

  onApplicationBootstrap(): void {
    for (const job of this.services.jobs) job.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const job of this.services.jobs) job.stop();
    await Promise.all(this.services.jobs.map((job) => job.idle()));
    this.faults.releaseAll();
  }

  onApplicationShutdown(): void {
    this.store.close();
  }
}

/** The airline's services, built once over its store and world (plain constructors: the domain knows no Nest). */
export interface AirlineServices extends RetailDomain {
  tokens: TokenService;
  /** Wakes at each held order's payment time limit (started and stopped with the app). */
  holdJob: DeadlineJob;
  /** The schedule-change simulator (`POST /_sim/schedule-changes`). */
  scheduleChanges: ScheduleChangeService;
  /** Applies the airline's default at each schedule change's deadline. */
  changeJob: DeadlineJob;
  /** Pushes the queued OrderChangeNotif (nothing when AIRLINE_NOTIFY_URL is unset). */
  pushJob: DeadlineJob;
  /** Every job, started and stopped with the app. */
  jobs: DeadlineJob[];
}

/** Builds the services of the airline configured by `config` over `store` and `world`, on `clock`. */
export function airlineServices(
  config: AirlineConfig,
  store: AirlineStore,
  world: World,
  clock: AirlineClock,
): AirlineServices {
  const authentication = new AuthenticationService(store, clock, {
    holdMs: config.authenticationHoldMs,
    vaultKey: config.vaultKey,
  });
  const extras = new ExtrasService(world, store.responses, store.seats, clock, config.seatLockMs);
  const book = new OrderBook(store, world, config.portalUrl);
  const { notices, ...airlineChanges } = airlineChangeJobs(config, store, world, book, clock);
  const holds = new HoldExpiry(store, book, clock, notices);
  const holdJob = holdExpiryJob(authentication, holds, clock);
  const orderExtras = new OrderExtras(world, extras, store.responses, store.seats, book, clock);
  const changes = new OrderChangeService(world, store, book, store.tokens, clock, {
    authentication,
    extras: orderExtras,
  });
  const { holdMs, priceGuaranteeMs, holdDeniedAgencies, changeOfferTtlMs } = config.servicing;
  const orders = new OrdersService(store, world, clock, {
    airlineCode: config.airlineCode,
    portalUrl: config.portalUrl,
    authentication,
    extras,
    holds: { holdMs, priceGuaranteeMs, deniedAgencies: holdDeniedAgencies },
    onHeld: (due) => holdJob.wakeBy(due),
    completeChange: (hold) => changes.complete(hold),
  });
  return {
    shopping: new ShoppingService(world, store.responses, store.inventory, clock),
    pricing: new OfferPriceService(world, store.responses, store.inventory, store.tokens, clock, undefined, extras),
    extras,
    orders,
    authentication,
    holds,
    reshop: new ReshopService(world, store, book, clock, { ttlMs: changeOfferTtlMs }),
    changes,
    orderExtras,
    tokens: new TokenService(store.tokens, clock, config.vaultKey),
    holdJob,
    ...airlineChanges,
    jobs: [holdJob, airlineChanges.changeJob, airlineChanges.pushJob],
  };
}

/**
 * The changes the airline makes (docs/airline-service.md, "Schedule changes"): the simulator, the
 * job applying its default at each deadline, and the job pushing OrderChangeNotif (with the
 * outbox, for held orders that expire).
 */
function airlineChangeJobs(
  config: AirlineConfig,
  store: AirlineStore,
  world: World,
  book: OrderBook,
  clock: AirlineClock,
): Pick<AirlineServices, 'scheduleChanges' | 'changeJob' | 'pushJob'> & { notices: ExpiryNotices } {
  const logger = new NestLogger('AirlineChanges');
  const onError = (what: string) => (error: unknown) =>
    logger.error(`${what} failed: ${String(error)}`, (error as Error)?.stack);
  const writing = {
    airlineCode: config.airlineCode,
    extensionNamespace: config.extensionNamespace,
    exchangeNamespace: config.exchangeNamespace,
  };
  const outbox = new NotificationOutbox(store, clock, writing, config.notify, logger);
  const pushJob = new DeadlineJob({
    run: () => outbox.sendDue(),
    next: () => outbox.nextDue(),
    clock,
    onError: onError('pushing OrderChangeNotif'),
  });
  const pushNow = () => pushJob.wakeBy(clock.now().toISOString());
  const deadlines = new ChangeDeadlines(store, book, clock, outbox);
  const changeJob = new DeadlineJob({
    run: () => {
      if (deadlines.applyDue() > 0) pushNow();
    },
    next: () => deadlines.nextDeadline(),
    clock,
    onError: onError('applying schedule change deadlines'),
  });
  const scheduleChanges = new ScheduleChangeService(world, store, book, clock, outbox, {
    actionMs: config.servicing.changeActionMs,
    onChanged: (actionBy) => {
      changeJob.wakeBy(actionBy);
      pushNow();
    },
  });
  return { scheduleChanges, changeJob, pushJob, notices: { queue: outbox, pushNow } };
}

/** The job expiring held orders: 3-D Secure holds first, then orders past their payment time limit. */
function holdExpiryJob(authentication: AuthenticationService, holds: HoldExpiry, clock: AirlineClock): DeadlineJob {
  const logger = new NestLogger('HoldExpiry');
  return new DeadlineJob({
    run: () => releaseLapsed({ authentication, holds }),
    next: () => holds.nextDeadline(),
    clock,
    onError: (error) => logger.error(`expiring held orders failed: ${String(error)}`, (error as Error)?.stack),
  });
}

@Module({})
export class AirlineModule {
  static forRoot(config: AirlineConfig, options: AirlineAppOptions = {}): DynamicModule {
    const clock = options.clock ?? systemClock;
    const logger =
      options.logger ?? createLogger({ service: 'airline', level: pinoLevelOfNestLevels(config.logLevels) });
    return {
      module: AirlineModule,
      imports: [airlineLoggerModule(logger)],
      controllers: [
        HealthController,
        RetailController,
        AcsController,
        PaymentController,
        ...(config.production ? [] : [FaultsController, ScheduleChangesController]),
      ],
      providers: [
        { provide: AIRLINE_CONFIG, useValue: config },
        { provide: AIRLINE_CLOCK, useValue: clock },
        { provide: AirlineStore, useFactory: () => new AirlineStore(config.dbPath) },
        {
          provide: AIRLINE_WORLD,
          // The world as the airline's schedule changes leave it (a retimed flight, a cancelled one).
          useFactory: (store: AirlineStore) =>
            (options.world ?? loadWorld(undefined, config.airlineCode, config.worldSeed)).withSchedule(store.schedule),
          inject: [AirlineStore],
        },
        {
          provide: RETAIL_DOMAIN,
          useFactory: (store: AirlineStore, world: World) => airlineServices(config, store, world, clock),
          inject: [AirlineStore, AIRLINE_WORLD],
        },
        // The services the other controllers inject by class.
        { provide: TokenService, useFactory: (s: AirlineServices) => s.tokens, inject: [RETAIL_DOMAIN] },
        {
          provide: AuthenticationService,
          useFactory: (s: AirlineServices) => s.authentication,
          inject: [RETAIL_DOMAIN],
        },
        {
          provide: ScheduleChangeService,
          useFactory: (s: AirlineServices) => s.scheduleChanges,
          inject: [RETAIL_DOMAIN],
        },
        { provide: FaultService, useValue: new FaultService([TOKEN_OPERATION, ...RETAIL_OPERATION_NAMES]) },
        { provide: FaultRunner, useValue: new FaultRunner() },
        NdcMessages,
        NdcExchangeInterceptor,
        BasicAuthGuard,
        AirlineLifecycle,
      ],
    };
  }
}

/**
 * Builds the airline application for `config` (not yet listening): call
 * `await app.listen(port)` and, when done, `await app.close()` (closes the
 * database). The server keeps idle connections 60 s. Requests are logged
 * (`options.logger`), counted (`options.metrics`) and traced (a server span
 * continuing the caller's `traceparent`; a no-op while tracing is off).
 */
export async function createAirlineApp(
  config: AirlineConfig,
  options: AirlineAppOptions = {},
): Promise<NestExpressApplication> {
  const logger = options.logger ?? createLogger({ service: 'airline', level: pinoLevelOfNestLevels(config.logLevels) });
  const app = await NestFactory.create<NestExpressApplication>(AirlineModule.forRoot(config, { ...options, logger }), {
    bodyParser: false,
    bufferLogs: true,
    forceCloseConnections: true,
    abortOnError: false,
  });
  app.useLogger(nestLoggerFor(logger));
  // Ahead of the body parsers, so refused bodies (413, 415) are counted and traced too.
  app.use(airlineRequestMetrics(options.metrics ?? createAirlineMetrics()));
  app.use(airlineServerSpans());
  configureAirlineApp(app, config);
  return app;
}
