/**
 * The registry of the airline's NDC operations, the one place a message is added: for each
 * request root, the path under `/retail` that takes it, its simulator operation, its decoder,
 * the response root of its answers and errors, and the domain call that answers it.
 *
 * The exchange (ndc-exchange.ts) reads the body's root, finds its operation at the request's
 * path here (a root the path does not take is refused, naming it) and decodes it; the
 * controller runs the bound handler; the answer encodes itself with its response root. The
 * same entry gives the root of the operation's errors (airline-exception.filter.ts).
 *
 * Adding a message: write its codec in src/ndc, declare its response root below if it is new
 * (`responseRoot`), and add one `operation(...)` entry to {@link RETAIL_OPERATIONS}.
 */
import {
  type EncodeOptions,
  type ParseOptions,
  decodeAirShoppingRq,
  decodeCustomerInputRs,
  decodeOfferPriceRq,
  decodeOrderCancelRq,
  decodeOrderChangeRq,
  decodeOrderCreateRq,
  decodeOrderRetrieveRq,
  decodeSeatAvailabilityRq,
  decodeServiceListRq,
  encodeAirShoppingRs,
  encodeCustomerInputRq,
  encodeOfferPriceRs,
  encodeOrderCancelRs,
  encodeOrderReshopRs,
  encodeSeatAvailabilityRs,
  encodeServiceListRs,
} from '../../ndc';
import type { MessageHeader, NdcError, ResponseCommon } from '../../ndc/ndc.model';
import type { AuthenticationService } from '../authentication/authentication.service';
import type { ExtrasService } from '../extras/extras.service';
import type { OfferPriceService } from '../offer-price/offer-price.service';
import type { OrdersService } from '../orders/orders.service';
import type { HoldExpiry } from '../servicing/hold-expiry';
import type { OrderChangeService } from '../servicing/order-change.service';
import type { OrderExtras } from '../servicing/order-extras';
import { decodeReshopRequest } from '../servicing/reshop-request';
import type { ReshopService } from '../servicing/reshop.service';
import type { ShoppingService } from '../shopping/shopping.service';
import { encodeVersionedOrderView } from './order-view-version';

// ------------------------------------------------------------------ answers

/** The form of every error answer: `Errors` under the response root. */
export type ErrorAnswer = ResponseCommon & { kind: 'error'; errors: NdcError[] };

/** A response root: its element name and the encoder of its model `M`. */
export interface ResponseRoot<M> {
  readonly name: string;
  readonly encode: (model: M, opts: EncodeOptions) => string;
}

/** A response root whose model has the error form: the root of an operation's errors. */
export type ErrorRoot = ResponseRoot<ErrorAnswer>;

function responseRoot<M>(name: string, encode: (model: M, opts: EncodeOptions) => string): ResponseRoot<M> {
  return { name, encode };
}

export const AIR_SHOPPING_RS = responseRoot('AirShoppingRS', encodeAirShoppingRs);
export const OFFER_PRICE_RS = responseRoot('OfferPriceRS', encodeOfferPriceRs);
export const SERVICE_LIST_RS = responseRoot('ServiceListRS', encodeServiceListRs);
export const SEAT_AVAILABILITY_RS = responseRoot('SeatAvailabilityRS', encodeSeatAvailabilityRs);
/** OrderViewRS, with the order's version as the root's `SequenceNmbr` (order-view-version.ts). */
export const ORDER_VIEW_RS = responseRoot('OrderViewRS', encodeVersionedOrderView);
export const ORDER_CANCEL_RS = responseRoot('OrderCancelRS', encodeOrderCancelRs);
export const ORDER_RESHOP_RS = responseRoot('OrderReshopRS', encodeOrderReshopRs);
/** The 3-D Secure challenge answering an OrderCreateRQ (it has no error form). */
export const CUSTOMER_INPUT_RQ = responseRoot('CustomerInputRQ', encodeCustomerInputRq);

/**
 * The domain's answer to one request, ready to encode: `xml` writes it as a message of its
 * response root with the response header the exchange stamps (time stamp, echoed ids).
 */
export interface NdcAnswer {
  /** The response root's element name. */
  readonly root: string;
  /** A weak ETag of the answer's content (the GET of orders): `If-None-Match` with it gets 304. */
  readonly etag?: string;
  xml(header: MessageHeader, opts: EncodeOptions): string;
}

/** `model` answered as a message of `root` (with `etag`, when given). */
export function answer<M extends MessageHeader>(root: ResponseRoot<M>, model: M, etag?: string): NdcAnswer {
  return {
    root: root.name,
    ...(etag === undefined ? {} : { etag }),
    xml: (header, opts) => root.encode({ ...model, ...header }, opts),
  };
}

// ------------------------------------------------------------------ operations

/** The domain services the operations call. */
export interface RetailDomain {
  shopping: ShoppingService;
  pricing: OfferPriceService;
  extras: ExtrasService;
  orders: OrdersService;
  /** 3-D Secure holds: released when their window has passed, before seats are counted. */
  authentication: AuthenticationService;
  /** Held orders past their payment time limit: cancelled before seats are counted or orders read. */
  holds: HoldExpiry;
  /** OrderReshopRQ: change offers, refund quotes, reprices. */
  reshop: ReshopService;
  /** OrderChangeRQ: accepted offers, payments, removals. */
  changes: OrderChangeService;
  /** ServiceListRQ and SeatAvailabilityRQ for an existing order. */
  orderExtras: OrderExtras;
}

/**
 * Ends what has lapsed before a request counts seats or reads orders: 3-D Secure holds past their
 * window, then held orders past their payment time limit (whose payment holds end by then).
 */
export function releaseLapsed(airline: Pick<RetailDomain, 'authentication' | 'holds'>): void {
  airline.authentication.releaseExpired();
  airline.holds.expireDue();
}

/** What an operation may need of the HTTP request besides its message. */
export interface RetailCall {
  /** Base URL of the issuer page as the cardholder's browser reaches it (AIRLINE_ACS_BASE_URL or the request's). */
  acsBaseUrl: string;
}

/** What the exchange reads of every request message: the ids it echoes and the agency it acts for. */
export interface RequestMessage {
  transactionIdentifier?: string;
  correlationId?: string;
  /** Absent in a CustomerInputRS (it names no agency). */
  party?: { agencyId?: string };
}

/** One entry of the registry, for request messages `Q`. */
export interface OperationSpec<Q extends RequestMessage> {
  /** The path under `/retail` that takes this root (POST). */
  path: RetailPath;
  /** The operation's name (`OrderCreate`): its simulator operation (`/_sim/faults`) and its metrics label. */
  name: string;
  /** The codec's decoder of the root (throws NdcDecodeError). */
  decode: (xml: string, opts: ParseOptions) => Q;
  /** The root of the operation's answers and errors. */
  answers: ErrorRoot;
  /** Answers `rq` with the domain. */
  handle: (rq: Q, airline: RetailDomain, call: RetailCall) => NdcAnswer;
}

/** A registered operation, whatever its message type. */
export interface RetailOperation {
  readonly path: RetailPath;
  readonly name: string;
  readonly answers: ErrorRoot;
  /** Decodes a body of this root (throws NdcDecodeError) and binds its message to the handler. */
  decode(xml: string, opts: ParseOptions): DecodedMessage;
}

/** A decoded request bound to its operation's handler. */
export interface DecodedMessage {
  readonly message: RequestMessage;
  handle(airline: RetailDomain, call: RetailCall): NdcAnswer;
}

function operation<Q extends RequestMessage>(spec: OperationSpec<Q>): RetailOperation {
  const { decode, handle, ...declared } = spec;
  return {
    ...declared,
    decode: (xml, opts) => {
      const message = decode(xml, opts);
      return { message, handle: (airline, call) => handle(message, airline, call) };
    },
  };
}

/**
 * The retail paths that take NDC messages (POST), each with the root of its errors found before
 * the body's root is known (unreadable body, unsupported media type, unknown root).
 */
export const RETAIL_PATHS = {
  offers: AIR_SHOPPING_RS,
  offerPrices: OFFER_PRICE_RS,
  services: SERVICE_LIST_RS,
  'availability/seat': SEAT_AVAILABILITY_RS,
  orders: ORDER_VIEW_RS,
} as const satisfies Record<string, ErrorRoot>;

export type RetailPath = keyof typeof RETAIL_PATHS;

/** Every NDC operation of the airline, by request root. */
export const RETAIL_OPERATIONS: Readonly<Record<string, RetailOperation>> = {
  AirShoppingRQ: operation({
    path: 'offers',
    name: 'AirShopping',
    decode: decodeAirShoppingRq,
    answers: AIR_SHOPPING_RS,
    handle: (rq, airline) => {
      releaseLapsed(airline);
      return answer(AIR_SHOPPING_RS, airline.shopping.shop(rq));
    },
  }),
  OfferPriceRQ: operation({
    path: 'offerPrices',
    name: 'OfferPrice',
    decode: decodeOfferPriceRq,
    answers: OFFER_PRICE_RS,
    handle: (rq, airline) => {
      releaseLapsed(airline);
      return answer(OFFER_PRICE_RS, airline.pricing.price(rq));
    },
  }),
  ServiceListRQ: operation({
    path: 'services',
    name: 'ServiceList',
    decode: decodeServiceListRq,
    answers: SERVICE_LIST_RS,
    // An OrderID asks for the services of an existing order.
    handle: (rq, airline) =>
      answer(SERVICE_LIST_RS, rq.order ? airline.orderExtras.serviceList(rq) : airline.extras.serviceList(rq)),
  }),
  SeatAvailabilityRQ: operation({
    path: 'availability/seat',
    name: 'SeatAvailability',
    decode: decodeSeatAvailabilityRq,
    answers: SEAT_AVAILABILITY_RS,
    // A Query/Order asks for the seat maps of an existing order.
    handle: (rq, airline) => {
      if (!rq.order) return answer(SEAT_AVAILABILITY_RS, airline.extras.seatAvailability(rq));
      releaseLapsed(airline);
      return answer(SEAT_AVAILABILITY_RS, airline.orderExtras.seatAvailability(rq));
    },
  }),
  OrderCreateRQ: operation({
    path: 'orders',
    name: 'OrderCreate',
    decode: decodeOrderCreateRq,
    answers: ORDER_VIEW_RS,
    // The order, or the 3-D Secure challenge when the card needs it.
    handle: (rq, airline, call) => {
      releaseLapsed(airline);
      const rs = airline.orders.create(rq, { acsBaseUrl: call.acsBaseUrl });
      return 'securePayments' in rs ? answer(CUSTOMER_INPUT_RQ, rs) : answer(ORDER_VIEW_RS, rs);
    },
  }),
  OrderRetrieveRQ: operation({
    path: 'orders',
    name: 'OrderRetrieve',
    decode: decodeOrderRetrieveRq,
    answers: ORDER_VIEW_RS,
    handle: (rq, airline) => {
      releaseLapsed(airline);
      return answer(ORDER_VIEW_RS, airline.orders.retrieve(rq));
    },
  }),
  OrderCancelRQ: operation({
    path: 'orders',
    name: 'OrderCancel',
    decode: decodeOrderCancelRq,
    answers: ORDER_CANCEL_RS,
    handle: (rq, airline) => {
      releaseLapsed(airline);
      return answer(ORDER_CANCEL_RS, airline.orders.cancel(rq));
    },
  }),
  // After the sale (docs/airline-service.md "Servicing orders"): what a change would be, then the change.
  OrderReshopRQ: operation({
    path: 'orders',
    name: 'OrderReshop',
    decode: decodeReshopRequest,
    answers: ORDER_RESHOP_RS,
    handle: (rq, airline) => {
      releaseLapsed(airline);
      return answer(ORDER_RESHOP_RS, airline.reshop.reshop(rq));
    },
  }),
  OrderChangeRQ: operation({
    path: 'orders',
    name: 'OrderChange',
    decode: decodeOrderChangeRq,
    answers: ORDER_VIEW_RS,
    // The changed order, or the 3-D Secure challenge of its payment.
    handle: (rq, airline, call) => {
      releaseLapsed(airline);
      const rs = airline.changes.change(rq, { acsBaseUrl: call.acsBaseUrl });
      return 'securePayments' in rs ? answer(CUSTOMER_INPUT_RQ, rs) : answer(ORDER_VIEW_RS, rs);
    },
  }),
  // The client's answer to a CustomerInputRQ: the cardholder's 3-D Secure result.
  CustomerInputRS: operation({
    path: 'orders',
    name: 'CustomerInput',
    decode: decodeCustomerInputRs,
    answers: ORDER_VIEW_RS,
    handle: (rs, airline) => {
      releaseLapsed(airline);
      return answer(ORDER_VIEW_RS, airline.orders.completeAuthentication(rs));
    },
  }),
};

/** The names of the NDC operations (the fault simulator's operations besides `Token`). */
export const RETAIL_OPERATION_NAMES: readonly string[] = [
  ...new Set(Object.values(RETAIL_OPERATIONS).map((op) => op.name)),
];

/** The request roots `path` takes, in registry order. */
export function rootsAt(path: RetailPath): string[] {
  return Object.entries(RETAIL_OPERATIONS)
    .filter(([, op]) => op.path === path)
    .map(([root]) => root);
}

/** The operation of request root `root` at `path`; undefined when the path does not take that root. */
export function operationAt(path: RetailPath, root: string): RetailOperation | undefined {
  const op = Object.hasOwn(RETAIL_OPERATIONS, root) ? RETAIL_OPERATIONS[root] : undefined;
  return op?.path === path ? op : undefined;
}

/**
 * The retail path of a request path (`/retail/offerPrices`), matched as Express routes:
 * case-insensitively, a trailing slash allowed; undefined for any other path.
 */
export function retailPathOf(urlPath: string): RetailPath | undefined {
  const wanted = urlPath.toLowerCase().replace(/\/+$/, '');
  return RETAIL_MESSAGE_PATHS.find((p) => `/retail/${p}`.toLowerCase() === wanted);
}

function isRetailPath(path: string): path is RetailPath {
  return Object.hasOwn(RETAIL_PATHS, path);
}

/** The paths of {@link RETAIL_PATHS}, for the controller's route. */
export const RETAIL_MESSAGE_PATHS: readonly RetailPath[] = Object.keys(RETAIL_PATHS).filter(isRetailPath);
