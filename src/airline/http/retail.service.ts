/**
 * Binds the retail operations to the airline's domain (shopping, offer
 * pricing) and to the order service.
 */
import type {
  AirShoppingRq,
  AirShoppingRs,
  CustomerInputRq,
  CustomerInputRs,
  OfferPriceRq,
  OfferPriceRs,
  OrderCancelRq,
  OrderCancelRs,
  OrderCreateRq,
  OrderRetrieveRq,
  OrderViewRs,
} from '../../ndc/ndc.model';
import { AGENCY_ID_ELEMENT, requireElement } from '../../ndc/require-element';
import type { AuthenticationService } from '../authentication/authentication.service';
import type { SeatAvailabilityRq, SeatAvailabilityRs, ServiceListRq, ServiceListRs } from '../../ndc/extras.model';
import type { ExtrasService } from '../extras/extras.service';
import type { FaultMode } from '../faults/faults.service';
import type { OfferPriceService } from '../offer-price/offer-price.service';
import type { OrdersLookup, OrdersService } from '../orders/orders.service';
import type { ShoppingService } from '../shopping/shopping.service';

export class RetailService {
  constructor(
    private readonly shopping: ShoppingService,
    private readonly pricing: OfferPriceService,
    private readonly orders: OrdersService,
    /** 3-D Secure holds: released when their window has passed, before seats are counted. */
    private readonly authentication?: AuthenticationService,
    private readonly extras?: ExtrasService,
  ) {}

  serviceList(rq: ServiceListRq): ServiceListRs {
    return this.extrasService().serviceList(rq);
  }

  seatAvailability(rq: SeatAvailabilityRq): SeatAvailabilityRs {
    return this.extrasService().seatAvailability(rq);
  }

  private extrasService(): ExtrasService {
    if (!this.extras) throw new Error('extras are not configured');
    return this.extras;
  }

  airShopping(rq: AirShoppingRq): AirShoppingRs {
    this.authentication?.releaseExpired();
    return this.shopping.shop(rq);
  }

  offerPrice(rq: OfferPriceRq): OfferPriceRs {
    this.authentication?.releaseExpired();
    return this.pricing.price(rq);
  }

  /** OrderViewRS, or CustomerInputRQ when the card needs 3-D Secure (the issuer page is under `acsBaseUrl`). */
  orderCreate(rq: OrderCreateRq, acsBaseUrl: string): OrderViewRs | CustomerInputRq {
    return this.orders.create(rq, { acsBaseUrl });
  }

  /** The cardholder's authentication result (CustomerInputRS): the order, or why not. */
  customerInput(rs: CustomerInputRs): OrderViewRs {
    return this.orders.completeAuthentication(rs);
  }

  orderRetrieve(rq: OrderRetrieveRq): OrderViewRs {
    return this.orders.retrieve(
      requireElement(rq.orderId, 'Query/Filters/OrderID'),
      requireElement(rq.party.agencyId, AGENCY_ID_ELEMENT),
      requireElement(rq.owner, 'Query/Filters/OrderID/@Owner'),
    );
  }

  orderCancel(rq: OrderCancelRq): OrderCancelRs {
    return this.orders.cancel(rq);
  }

  /** The GET of orders; `fault` is the simulator mode armed for this call, if any. */
  ordersByResponseId(responseId: string, agencyId: string, fault?: FaultMode): OrdersLookup {
    return this.orders.byResponseId(
      responseId,
      agencyId,
      fault === 'lookup-by-pricing-id-only' ? 'pricing-id-only' : 'any',
    );
  }
}
