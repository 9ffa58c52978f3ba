/**
 * Binds the retail operations to the airline's domain (shopping, offer
 * pricing) and to the order service.
 */
import type {
  AirShoppingRq,
  AirShoppingRs,
  OfferPriceRq,
  OfferPriceRs,
  OrderCreateRq,
  OrderRetrieveRq,
  OrderViewRs,
} from '../../ndc/ndc.model';
import { AirlineError } from '../airline.errors';
import type { OrdersService } from '../orders/orders.service';
import type { OrdersLookup } from './ndc-pipeline';

export class RetailService {
  constructor(private readonly orders: OrdersService) {}

  airShopping(_rq: AirShoppingRq): AirShoppingRs {
    throw new AirlineError('SYSTEM_ERROR', 'shopping is not available');
  }

  offerPrice(_rq: OfferPriceRq): OfferPriceRs {
    throw new AirlineError('SYSTEM_ERROR', 'offer pricing is not available');
  }

  orderCreate(rq: OrderCreateRq): OrderViewRs {
    return this.orders.create(rq);
  }

  orderRetrieve(rq: OrderRetrieveRq): OrderViewRs {
    return this.orders.retrieve(rq.orderId, rq.party.agencyId);
  }

  ordersByShoppingResponse(shoppingResponseId: string, agencyId: string): OrdersLookup {
    return this.orders.byShoppingResponse(shoppingResponseId, agencyId);
  }
}
