/**
 * The XML retail interface (`/retail/*`, Basic auth): AirShopping, OfferPrice,
 * ServiceList, SeatAvailability, OrderCreate / OrderRetrieve / OrderCancel / CustomerInputRS (by
 * root element) and the GET of orders by response id. Every route takes the one path of
 * {@link NdcExchangeInterceptor}: the guard and interceptor declared here apply to all of them.
 */
import { Controller, Get, HttpCode, Inject, Post, Query, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type {
  AirShoppingRq,
  CustomerInputRs,
  OfferPriceRq,
  OrderCancelRq,
  OrderCreateRq,
  OrderRetrieveRq,
} from '../../ndc/ndc.model';
import type { SeatAvailabilityRq, ServiceListRq } from '../../ndc/extras.model';
import type { AirlineConfig } from '../airline.config';
import { AIRLINE_CONFIG } from '../airline.tokens';
import { ndcError } from '../airline.errors';
import { BasicAuthGuard } from './basic-auth.guard';
import type { ExpressRequest, ExpressResponse } from './express.types';
import type { NdcResponse } from './ndc-codec';
import { Exchange, type NdcExchange, NdcExchangeInterceptor, NdcMessage, NdcRoute } from './ndc-exchange';
import { NdcHttpError } from './ndc-http.error';
import { RetailService } from './retail.service';

@Controller('retail')
@UseGuards(BasicAuthGuard)
@UseInterceptors(NdcExchangeInterceptor)
export class RetailController {
  constructor(
    @Inject(RetailService) private readonly retail: RetailService,
    @Inject(AIRLINE_CONFIG) private readonly config: AirlineConfig,
  ) {}

  @Post('offers')
  @HttpCode(200)
  @NdcRoute({ responseRoot: 'AirShoppingRS', requests: { AirShoppingRQ: 'AirShopping' } })
  offers(@NdcMessage() rq: AirShoppingRq): NdcResponse {
    return this.retail.airShopping(rq);
  }

  @Post('offerPrices')
  @HttpCode(200)
  @NdcRoute({ responseRoot: 'OfferPriceRS', requests: { OfferPriceRQ: 'OfferPrice' } })
  offerPrices(@NdcMessage() rq: OfferPriceRq): NdcResponse {
    return this.retail.offerPrice(rq);
  }

  /** ServiceList: the extras of the selected offers (docs/airline-service.md, "Extras"). */
  @Post('services')
  @HttpCode(200)
  @NdcRoute({ responseRoot: 'ServiceListRS', requests: { ServiceListRQ: 'ServiceList' } })
  services(@NdcMessage() rq: ServiceListRq): NdcResponse {
    return this.retail.serviceList(rq);
  }

  /** SeatAvailability: the seat maps of the selected offer's flights. */
  @Post('availability/seat')
  @HttpCode(200)
  @NdcRoute({ responseRoot: 'SeatAvailabilityRS', requests: { SeatAvailabilityRQ: 'SeatAvailability' } })
  seatAvailability(@NdcMessage() rq: SeatAvailabilityRq): NdcResponse {
    return this.retail.seatAvailability(rq);
  }

  @Post('orders')
  @HttpCode(200)
  @NdcRoute({
    responseRoot: 'OrderViewRS',
    requests: {
      OrderCreateRQ: 'OrderCreate',
      OrderRetrieveRQ: 'OrderRetrieve',
      OrderCancelRQ: 'OrderCancel',
      CustomerInputRS: 'CustomerInput',
    },
  })
  orders(@Exchange() exchange: NdcExchange, @Req() req: ExpressRequest): NdcResponse {
    switch (exchange.root) {
      case 'OrderCreateRQ':
        // The issuer page is served by this airline, at the address the caller reached it by unless configured.
        return this.retail.orderCreate(
          exchange.message as OrderCreateRq,
          this.config.acsBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`,
        );
      case 'CustomerInputRS':
        return this.retail.customerInput(exchange.message as CustomerInputRs);
      case 'OrderCancelRQ':
        return this.retail.orderCancel(exchange.message as OrderCancelRq);
      default:
        return this.retail.orderRetrieve(exchange.message as OrderRetrieveRq);
    }
  }

  /** `GET /retail/orders?shoppingResponseId=&agencyID=` with a weak ETag (If-None-Match: 304). */
  @Get('orders')
  @NdcRoute({ responseRoot: 'OrderViewRS', operation: 'OrderRetrieve' })
  ordersByResponseId(
    @Query('shoppingResponseId') shoppingResponseId: unknown,
    @Query('agencyID') agencyID: unknown,
    @Query('agencyId') agencyIdAlias: unknown,
    @Res({ passthrough: true }) res: ExpressResponse,
    @Exchange() exchange: NdcExchange,
  ): NdcResponse {
    // The spec spells it agencyID; agencyId is accepted too.
    const agencyId = agencyID ?? agencyIdAlias;
    if (typeof shoppingResponseId !== 'string' || !shoppingResponseId || typeof agencyId !== 'string' || !agencyId) {
      const missing = [
        (typeof shoppingResponseId !== 'string' || !shoppingResponseId) && 'shoppingResponseId',
        (typeof agencyId !== 'string' || !agencyId) && 'agencyID',
      ]
        .filter(Boolean)
        .join(' and ');
      throw new NdcHttpError(
        400,
        'OrderViewRS',
        [ndcError('INVALID_REQUEST', `missing query parameter ${missing}`)],
        exchange.echo,
      );
    }
    const { rs, etag } = this.retail.ordersByResponseId(shoppingResponseId, agencyId, exchange.fault?.mode);
    res.setHeader('ETag', etag);
    return rs;
  }
}
