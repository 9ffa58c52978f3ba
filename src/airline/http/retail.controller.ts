/**
 * The XML retail interface (`/retail/*`, Basic auth): every NDC message, at the path the
 * registry gives its root (retail.operations.ts: AirShopping, OfferPrice, ServiceList,
 * SeatAvailability, and OrderCreate / OrderRetrieve / OrderCancel / OrderReshop / OrderChange /
 * CustomerInputRS at `/retail/orders`), and the GET of orders by response id. Every route takes the one path of
 * {@link NdcExchangeInterceptor}: the guard and interceptor declared here apply to all of them.
 */
import { Controller, Get, HttpCode, Inject, Post, Query, Req, UseGuards, UseInterceptors } from '@nestjs/common';
import type { AirlineConfig } from '../airline.config';
import { ndcError } from '../airline.errors';
import { AIRLINE_CONFIG, RETAIL_DOMAIN } from '../airline.tokens';
import { BasicAuthGuard } from './basic-auth.guard';
import type { ExpressRequest } from './express.types';
import { type NdcExchange, Exchange, NdcExchangeInterceptor, NdcMessage, NdcQuery } from './ndc-exchange';
import { NdcRequestError } from './ndc-http.error';
import {
  type DecodedMessage,
  type NdcAnswer,
  ORDER_VIEW_RS,
  RETAIL_MESSAGE_PATHS,
  type RetailDomain,
  answer,
  releaseLapsed,
} from './retail.operations';

@Controller('retail')
@UseGuards(BasicAuthGuard)
@UseInterceptors(NdcExchangeInterceptor)
export class RetailController {
  constructor(
    @Inject(RETAIL_DOMAIN) private readonly airline: RetailDomain,
    @Inject(AIRLINE_CONFIG) private readonly config: AirlineConfig,
  ) {}

  /** An NDC message: the exchange decoded it by its root and bound it to its operation's handler. */
  @Post([...RETAIL_MESSAGE_PATHS])
  @HttpCode(200)
  message(@NdcMessage() message: DecodedMessage, @Req() req: ExpressRequest): NdcAnswer {
    // The issuer page is served by this airline, at the address the caller reached it by unless configured.
    const acsBaseUrl = this.config.acsBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    return message.handle(this.airline, { acsBaseUrl });
  }

  /** `GET /retail/orders?shoppingResponseId=&agencyID=` with a weak ETag (If-None-Match: 304). */
  @Get('orders')
  @NdcQuery({ answers: ORDER_VIEW_RS, name: 'OrderRetrieve' })
  ordersByResponseId(
    @Query('shoppingResponseId') shoppingResponseId: unknown,
    @Query('agencyID') agencyID: unknown,
    @Query('agencyId') agencyIdAlias: unknown,
    @Exchange() exchange: NdcExchange,
  ): NdcAnswer {
    // The spec spells it agencyID; agencyId is accepted too.
    const agencyId = agencyID ?? agencyIdAlias;
    if (typeof shoppingResponseId !== 'string' || !shoppingResponseId || typeof agencyId !== 'string' || !agencyId) {
      const missing = [
        (typeof shoppingResponseId !== 'string' || !shoppingResponseId) && 'shoppingResponseId',
        (typeof agencyId !== 'string' || !agencyId) && 'agencyID',
      ]
        .filter(Boolean)
        .join(' and ');
      throw new NdcRequestError(400, ndcError('INVALID_REQUEST', `missing query parameter ${missing}`));
    }
    releaseLapsed(this.airline);
    const rule = exchange.fault?.mode === 'lookup-by-pricing-id-only' ? 'pricing-id-only' : 'any';
    const { rs, etag } = this.airline.orders.byResponseId(shoppingResponseId, agencyId, rule);
    return answer(ORDER_VIEW_RS, rs, etag);
  }
}
