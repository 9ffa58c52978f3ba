/**
 * The XML retail interface (`/retail/*`, Basic auth): AirShopping, OfferPrice,
 * OrderCreate / OrderRetrieve (by root element) and the GET of orders by
 * shopping response id.
 */
import { Controller, Get, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AirShoppingRq, OfferPriceRq, OrderCreateRq, OrderRetrieveRq } from '../../ndc/ndc.model';
import type { AirlineConfig } from '../airline.config';
import { AIRLINE_CONFIG } from '../airline.tokens';
import { BasicAuthGuard } from './basic-auth.guard';
import { NdcPipeline, type NdcRoute } from './ndc-pipeline';
import { RetailService } from './retail.service';
import { ShoppingCache } from './shopping-cache';

@Controller('retail')
@UseGuards(BasicAuthGuard)
export class RetailController {
  /** The route of `POST /retail/offers` (also served directly, see direct-route.ts). */
  readonly offersRoute: NdcRoute;
  private readonly offerPricesRoute: NdcRoute;
  private readonly ordersRoute: NdcRoute;

  constructor(
    @Inject(NdcPipeline) private readonly pipeline: NdcPipeline,
    @Inject(RetailService) private readonly retail: RetailService,
    @Inject(ShoppingCache) shoppingCache: ShoppingCache,
    @Inject(AIRLINE_CONFIG) config: AirlineConfig,
  ) {
    this.offersRoute = {
      errorRoot: 'AirShoppingRS',
      operations: {
        AirShoppingRQ: {
          fault: 'AirShopping',
          rsRoot: 'AirShoppingRS',
          execute: (rq) => this.retail.airShopping(rq as AirShoppingRq),
          cache: config.shoppingCache ? shoppingCache : undefined,
        },
      },
    };
    this.offerPricesRoute = {
      errorRoot: 'OfferPriceRS',
      operations: {
        OfferPriceRQ: {
          fault: 'OfferPrice',
          rsRoot: 'OfferPriceRS',
          execute: (rq) => this.retail.offerPrice(rq as OfferPriceRq),
        },
      },
    };
    this.ordersRoute = {
      errorRoot: 'OrderViewRS',
      operations: {
        OrderCreateRQ: {
          fault: 'OrderCreate',
          rsRoot: 'OrderViewRS',
          execute: (rq) => this.retail.orderCreate(rq as OrderCreateRq),
        },
        OrderRetrieveRQ: {
          fault: 'OrderRetrieve',
          rsRoot: 'OrderViewRS',
          execute: (rq) => this.retail.orderRetrieve(rq as OrderRetrieveRq),
        },
      },
    };
  }

  @Post('offers')
  offers(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    return this.pipeline.handlePost(req, res, this.offersRoute);
  }

  @Post('offerPrices')
  offerPrices(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    return this.pipeline.handlePost(req, res, this.offerPricesRoute);
  }

  @Post('orders')
  orders(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    return this.pipeline.handlePost(req, res, this.ordersRoute);
  }

  @Get('orders')
  ordersByShoppingResponse(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    return this.pipeline.handleGetOrders(req, res, (shoppingResponseId, agencyId) =>
      this.retail.ordersByShoppingResponse(shoppingResponseId, agencyId),
    );
  }
}
