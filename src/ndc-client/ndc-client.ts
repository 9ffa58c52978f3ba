/**
 * HTTP client of an NDC 17.2 airline retail interface (and its JSON payment interface), as the
 * spec describes it: Basic auth, the vendor media type, gzip, keep-alive, correlation headers,
 * a timeout per request, and failures classified into {@link NdcClientError}s.
 *
 * Built on `node:http`/`node:https` with a keep-alive Agent so that a failure can be told apart
 * by whether the request had been fully written (`requestSent`): what the orchestrator needs to
 * never book twice.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { CircuitBreaker, type CircuitOptions } from './circuit-breaker';
import { createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { context, propagation } from '@opentelemetry/api';
import {
  bindingContentType,
  bindingHeaders,
  decodeAirShoppingRs,
  decodeCustomerInputRq,
  decodeOfferPriceRs,
  decodeOrderCancelRs,
  decodeOrderReshopRs,
  decodeOrderViewRs,
  decodeSeatAvailabilityRs,
  decodeServiceListRs,
  encodeAirShoppingRq,
  encodeCustomerInputRs,
  encodeOfferPriceRq,
  encodeOrderCancelRq,
  encodeOrderChangeRq,
  encodeOrderCreateRq,
  encodeOrderReshopRq,
  encodeOrderRetrieveRq,
  ndcRootName,
  encodeSeatAvailabilityRq,
  encodeServiceListRq,
  ndcDocument,
  wrapInBinding,
  type EncodeOptions,
  type NdcBinding,
  type NdcExchangeSettings,
  type ParseOptions,
} from '../ndc';
import type {
  AirShoppingRq,
  AirShoppingRs,
  CustomerInputRq,
  CustomerInputRs,
  NdcError,
  SecurePaymentChallenge,
  OfferPriceRq,
  OfferPriceRs,
  OrderCancelRq,
  OrderCancelRs,
  OrderCreateRq,
  OrderRef,
  OrderRetrieveRq,
  OrderViewRs,
} from '../ndc/ndc.model';
import type {
  SeatAvailabilityOrder,
  SeatAvailabilityRq,
  SeatAvailabilityRs,
  ServiceListRq,
  ServiceListRs,
} from '../ndc/extras.model';
import type { OrderChangeRq, OrderReshopRq, OrderReshopRs } from '../ndc/servicing.model';
import type { PaymentTokenRequest } from '../common/payment-token.model';
import {
  NdcBusinessError,
  NdcClientError,
  NdcHttpError,
  NdcInvalidResponseError,
  NdcTransportError,
} from './ndc-client.errors';

/** NDC code of "order not found" (spec: OrderViewRS Errors/Error Code 913). */
export const ORDER_NOT_FOUND_CODE = '913';

export interface NdcClientConfig {
  /** Base URL of the retail interface, e.g. `http://127.0.0.1:4010` (paths `/retail/...` are appended). */
  retailBaseUrl: string;
  /** Base URL of the payment interface (`/payment/tokens` is appended). */
  paymentBaseUrl: string;
  /** Basic auth user of `/retail/*`. */
  username: string;
  /** Basic auth password of `/retail/*`. */
  password: string;
  /** Vendor of the media type `application/vnd.<vendor>.ndc.v17.2+xml`. Default `ndcsaga`. */
  mediaVendor?: string;
  /**
   * How messages travel (`AIRLINE_BINDING`): `plain` (default) sends the NDC document with the
   * vendor media type; `soap11` / `soap12` send it in a SOAP Envelope/Body with the SOAP content
   * type (and SOAPAction for 1.1); `ndcexchange` sends it as the CDATA payload of an NDC Exchange
   * hub's `NDCMSG_Envelope` in a SOAP 1.1 Body (header from {@link NdcClientConfig.exchange}).
   * Answers are read in any binding (an exchange payload as CDATA, escaped text or inline XML).
   */
  binding?: NdcBinding;
  /**
   * The NDC Exchange envelope's settings (`binding: 'ndcexchange'` only): the hub's namespace
   * (`AIRLINE_EXCHANGE_NAMESPACE`, default `NDC_EXCHANGE_NS`), the sender's seller id
   * (`AIRLINE_EXCHANGE_SELLER_ID`, default none), the recipient company
   * (`AIRLINE_EXCHANGE_RECIPIENT`, default none) and the schema version (default `YY.2017.2`).
   */
  exchange?: NdcExchangeSettings;
  /**
   * Namespace of the airline's extension elements (`AIRLINE_EXTENSION_NAMESPACE`), written and
   * read by the codec. Default the codec's `EXT_NS`.
   */
  extensionNamespace?: string;
  /**
   * The namespace the airline's NDC documents arrive in when it is not the NDC namespace (a
   * provider's wrapper whose default namespace the NDC elements inherit), or `'*'` for any
   * (`ANY_NAMESPACE`): every answer is then read through such a wrapper, in every binding
   * (`ParseOptions.documentNamespace`). Default: unset, so such answers are invalid responses.
   * What we send is always in the NDC namespace.
   */
  documentNamespace?: string;
  /** Time allowed for one request, connect to last body byte, in ms. Default 20000. */
  timeoutMs?: number;
  /**
   * A circuit breaker for this airline (`circuit-breaker.ts`): after repeated transient failures
   * calls fail at once with `NdcCircuitOpenError` for a while. Default: none.
   */
  circuit?: { airline: string } & CircuitOptions;
  /** Maximum sockets per origin of the keep-alive agent. Default 64. */
  maxSockets?: number;
  /** Idle keep-alive sockets are closed after this many ms. Default 30000 (the airline announces 60 s). */
  keepAliveMs?: number;
}

/** Correlation of one call: sent as X-Correlation-Id / X-TransactionIdentifier and in the body. */
export interface CallOptions {
  correlationId?: string;
  transactionId?: string;
}

export type DayShoppingRs = Extract<AirShoppingRs, { kind: 'day' }>;
export type CalendarShoppingRs = Extract<AirShoppingRs, { kind: 'calendar' }>;
export type OfferPriceSuccess = Extract<OfferPriceRs, { kind: 'success' }>;
export type OrderViewSuccess = Extract<OrderViewRs, { kind: 'success' }>;
export type OrderCancelSuccess = Extract<OrderCancelRs, { kind: 'success' }>;
export type ServiceListSuccess = Extract<ServiceListRs, { kind: 'success' }>;
export type SeatAvailabilitySuccess = Extract<SeatAvailabilityRs, { kind: 'success' }>;
export type OrderReshopSuccess = Extract<OrderReshopRs, { kind: 'success' }>;

/** A ServiceListRQ for an existing order: the request without offers, naming the order. */
export type OrderServiceListRq = Omit<ServiceListRq, 'offers' | 'shoppingResponseId' | 'order'> & { order: OrderRef };
/** A SeatAvailabilityRQ for an existing order: the request without an offer, naming the order (and its passengers and segments). */
export type OrderSeatAvailabilityRq = Omit<SeatAvailabilityRq, 'offer' | 'shoppingResponseId' | 'order'> & {
  order: SeatAvailabilityOrder;
};

/** A successful OrderViewRS with the XML it was decoded from. */
export interface OrderViewResponse {
  rs: OrderViewSuccess;
  xml: string;
}

/**
 * The airline's answer to an OrderCreateRQ whose card needs 3-D Secure: a CustomerInputRQ (no
 * order yet). `payment` is its first SecurePayment, checked to carry what the client needs to
 * go on (`ACS_URL`, `SPM_TxnReference`).
 */
export interface CustomerInputResponse {
  challenge: CustomerInputRq;
  payment: SecurePaymentChallenge & { acsUrl: string; spmTxnReference: string };
  xml: string;
}

/** True when an OrderCreate was answered with a 3-D Secure challenge instead of an order. */
export function isAuthenticationChallenge(r: OrderViewResponse | CustomerInputResponse): r is CustomerInputResponse {
  return 'challenge' in r;
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

interface RawRequest {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Client of one airline. One instance per process: it owns the keep-alive agents. */
export class NdcHttpClient {
  readonly mediaType: string;
  readonly binding: NdcBinding;
  private readonly exchange: NdcExchangeSettings;
  /** Codec options of every encode (the extension namespace). */
  private readonly codec: EncodeOptions;
  /** Codec options of every answer read (the extension namespace, the document namespace). */
  private readonly reading: ParseOptions;
  /** `Accept` of every retail request: the media type of the binding. */
  private readonly accept: string;
  private readonly timeoutMs: number;
  private readonly authorization: string;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly retailBase: string;
  private readonly paymentBase: string;

  /** The airline's circuit breaker, when configured (its state for health and metrics). */
  readonly circuit: CircuitBreaker | undefined;

  constructor(private readonly config: NdcClientConfig) {
    this.circuit =
      config.circuit !== undefined ? new CircuitBreaker(config.circuit.airline, config.circuit) : undefined;
    this.mediaType = `application/vnd.${config.mediaVendor ?? 'ndcsaga'}.ndc.v17.2+xml;charset=UTF-8`;
    this.binding = config.binding ?? 'plain';
    this.exchange = config.exchange ?? {};
    this.codec = config.extensionNamespace !== undefined ? { extensionNamespace: config.extensionNamespace } : {};
    this.reading =
      config.documentNamespace !== undefined
        ? { ...this.codec, documentNamespace: config.documentNamespace }
        : this.codec;
    this.accept = bindingContentType(this.binding, this.mediaType);
    this.timeoutMs = config.timeoutMs ?? 20_000;
    this.authorization = `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`;
    const agentOptions = {
      keepAlive: true,
      keepAliveMsecs: 1000,
      maxSockets: config.maxSockets ?? 64,
      timeout: config.keepAliveMs ?? 30_000,
    };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
    this.retailBase = config.retailBaseUrl.replace(/\/+$/, '');
    this.paymentBase = config.paymentBaseUrl.replace(/\/+$/, '');
  }

  /** AirShoppingRQ, day search. Throws {@link NdcBusinessError} on an NDC error response. */
  async airShopping(rq: AirShoppingRq, options: CallOptions = {}): Promise<DayShoppingRs | CalendarShoppingRs> {
    const { body } = await this.postXml(
      '/retail/offers',
      'AirShoppingRQ',
      encodeAirShoppingRq(rq, this.codec),
      options,
    );
    const rs = this.decode(() => decodeAirShoppingRs(body, this.reading), 'AirShoppingRS');
    if (rs.kind === 'error') throw new NdcBusinessError(rs.errors);
    return rs;
  }

  /** OfferPriceRQ. Throws {@link NdcBusinessError} on an NDC error response. */
  async offerPrice(rq: OfferPriceRq, options: CallOptions = {}): Promise<OfferPriceSuccess> {
    const { body } = await this.postXml(
      '/retail/offerPrices',
      'OfferPriceRQ',
      encodeOfferPriceRq(rq, this.codec),
      options,
    );
    const rs = this.decode(() => decodeOfferPriceRs(body, this.reading), 'OfferPriceRS');
    if (rs.kind === 'error') throw new NdcBusinessError(rs.errors);
    return rs;
  }

  /**
   * ServiceListRQ (`POST /retail/services`): the extras of offers (or, with `rq.order`, of an
   * existing order). Throws {@link NdcBusinessError} on an NDC error response.
   */
  async serviceList(rq: ServiceListRq, options: CallOptions = {}): Promise<ServiceListSuccess> {
    const { body } = await this.postXml(
      '/retail/services',
      'ServiceListRQ',
      encodeServiceListRq(rq, this.codec),
      options,
    );
    const rs = this.decode(() => decodeServiceListRs(body, this.reading), 'ServiceListRS');
    if (rs.kind === 'error') throw new NdcBusinessError(rs.errors);
    return rs;
  }

  /**
   * ServiceListRQ for an existing order (`Query/OrderID@Owner`, `POST /retail/services`): the
   * services that can be added to it after the booking. Throws {@link NdcBusinessError} on an NDC
   * error response.
   */
  async orderServiceList(rq: OrderServiceListRq, options: CallOptions = {}): Promise<ServiceListSuccess> {
    return this.serviceList({ ...rq, offers: [] }, options);
  }

  /**
   * SeatAvailabilityRQ for an existing order (`Query/Order`, `POST /retail/availability/seat`):
   * the seat maps of its flights. Throws {@link NdcBusinessError} on an NDC error response.
   */
  async orderSeatAvailability(
    rq: OrderSeatAvailabilityRq,
    options: CallOptions = {},
  ): Promise<SeatAvailabilitySuccess> {
    return this.seatAvailability(rq, options);
  }

  /**
   * SeatAvailabilityRQ (`POST /retail/availability/seat`): the seat maps of an offer (or, with
   * `rq.order`, of an existing order). Throws
   * {@link NdcBusinessError} on an NDC error response.
   */
  async seatAvailability(rq: SeatAvailabilityRq, options: CallOptions = {}): Promise<SeatAvailabilitySuccess> {
    const { body } = await this.postXml(
      '/retail/availability/seat',
      'SeatAvailabilityRQ',
      encodeSeatAvailabilityRq(rq, this.codec),
      options,
    );
    const rs = this.decode(() => decodeSeatAvailabilityRs(body, this.reading), 'SeatAvailabilityRS');
    if (rs.kind === 'error') throw new NdcBusinessError(rs.errors);
    return rs;
  }

  /**
   * OrderCreateRQ. Not idempotent: check `requestSent` of a failure before retrying. The answer
   * is the order, or (card needing 3-D Secure) the airline's CustomerInputRQ: a typed result, not
   * an error ({@link isAuthenticationChallenge}); then answer it with {@link customerInput}.
   */
  async orderCreate(rq: OrderCreateRq, options: CallOptions = {}): Promise<OrderViewResponse | CustomerInputResponse> {
    const { body } = await this.postXml(
      '/retail/orders',
      'OrderCreateRQ',
      encodeOrderCreateRq(rq, this.codec),
      options,
    );
    return this.orderOrChallenge(body);
  }

  /**
   * OrderChangeRQ (`POST /retail/orders`): accept a reshop or à-la-carte offer, pay a held order,
   * accept a reprice, delete items. The answer is the order as it now is, or (a payment whose card
   * needs 3-D Secure) the airline's CustomerInputRQ, answered with {@link customerInput} as for
   * OrderCreate ({@link isAuthenticationChallenge}). Not idempotent, like OrderCreate: a failure
   * after the request went out leaves the outcome unknown ({@link isOutcomeUnknown}: the
   * `requestSent` transport, 5xx and undecodable-answer failures); settle it by reading the order
   * back ({@link orderRetrieve}) before sending it again. NDC errors (a definite refusal, nothing
   * changed) are thrown as {@link NdcBusinessError}.
   */
  async orderChange(rq: OrderChangeRq, options: CallOptions = {}): Promise<OrderViewResponse | CustomerInputResponse> {
    const { body } = await this.postXml(
      '/retail/orders',
      'OrderChangeRQ',
      encodeOrderChangeRq(rq, this.codec),
      options,
    );
    return this.orderOrChallenge(body);
  }

  /**
   * OrderReshopRQ (`POST /retail/orders`): change offers, a refund quote or a reprice of an order
   * (`rq.action`). Changes nothing at the airline, so it may be sent again after any failure. NDC
   * errors are thrown as {@link NdcBusinessError}.
   */
  async orderReshop(rq: OrderReshopRq, options: CallOptions = {}): Promise<OrderReshopSuccess> {
    const { body } = await this.postXml(
      '/retail/orders',
      'OrderReshopRQ',
      encodeOrderReshopRq(rq, this.codec),
      options,
    );
    const rs = this.decode(() => decodeOrderReshopRs(body, this.reading), 'OrderReshopRS');
    if (rs.kind === 'error') throw new NdcBusinessError(rs.errors);
    return rs;
  }

  /**
   * CustomerInputRS (`POST /retail/orders`): the cardholder's 3-D Secure result for a
   * CustomerInputRQ. Answers the order; a declined, invalid, expired or used result is thrown as
   * {@link NdcBusinessError} (781-784 at the embedded airline). Settle a lost answer by looking
   * the order up first; the embedded airline answers the same approved result sent again with the
   * order it already made, but an airline need not, so send it again only once no order exists.
   */
  async customerInput(rs: CustomerInputRs, options: CallOptions = {}): Promise<OrderViewResponse> {
    const { body } = await this.postXml(
      '/retail/orders',
      'CustomerInputRS',
      encodeCustomerInputRs(rs, this.codec),
      options,
    );
    return this.orderView(body);
  }

  /** OrderRetrieveRQ by order id. 913 is thrown as {@link NdcBusinessError}. */
  async orderRetrieve(rq: OrderRetrieveRq, options: CallOptions = {}): Promise<OrderViewResponse> {
    const { body } = await this.postXml(
      '/retail/orders',
      'OrderRetrieveRQ',
      encodeOrderRetrieveRq(rq, this.codec),
      options,
    );
    return this.orderView(body);
  }

  /**
   * OrderCancelRQ (`POST /retail/orders`). Not idempotent in effect (a second cancel is refused):
   * check `requestSent` of a failure and settle by retrieving the order before trying again.
   * NDC errors are thrown as {@link NdcBusinessError}.
   */
  async orderCancel(rq: OrderCancelRq, options: CallOptions = {}): Promise<OrderCancelSuccess> {
    const { body } = await this.postXml(
      '/retail/orders',
      'OrderCancelRQ',
      encodeOrderCancelRq(rq, this.codec),
      options,
    );
    const rs = this.decode(() => decodeOrderCancelRs(body, this.reading), 'OrderCancelRS');
    if (rs.kind === 'error') throw new NdcBusinessError(rs.errors);
    return rs;
  }

  /**
   * `GET /retail/orders?shoppingResponseId=&agencyID=`: the order created from that shopping
   * response, or `undefined` when the airline answers 913 (no such order for this agency).
   */
  async ordersByShoppingResponse(
    shoppingResponseId: string,
    agencyId: string,
    options: CallOptions = {},
  ): Promise<OrderViewResponse | undefined> {
    const url = new URL(`${this.retailBase}/retail/orders`);
    url.searchParams.set('shoppingResponseId', shoppingResponseId);
    url.searchParams.set('agencyID', agencyId);
    const response = await this.send({
      url,
      method: 'GET',
      headers: { ...this.correlationHeaders(options), Accept: this.accept, Authorization: this.authorization },
    });
    const body = this.expectStatus(response, 200, true);
    try {
      return this.orderView(body);
    } catch (error) {
      if (error instanceof NdcBusinessError && error.errors.some((e) => e.code === ORDER_NOT_FOUND_CODE))
        return undefined;
      throw error;
    }
  }

  /**
   * `POST /payment/tokens` (JSON). Returns the token id, and the card's `funding` (`credit`,
   * `debit`, ...) when the airline says it: in the answer, else, when `lookUp.funding` asks for it,
   * from the token's `self` link (`GET /payment/tokens/{id}`, as the spec's airline serves it; its
   * failure leaves `funding` out). A 400 (invalid card data) is a permanent {@link NdcHttpError}
   * whose message is the airline's `description` (never the card data).
   */
  async createToken(
    request: PaymentTokenRequest,
    options: CallOptions = {},
    lookUp: { funding?: boolean } = {},
  ): Promise<{ id: string; funding?: string }> {
    const response = await this.send({
      url: new URL(`${this.paymentBase}/payment/tokens`),
      method: 'POST',
      headers: {
        ...this.correlationHeaders(options),
        Accept: 'application/json',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(request),
    });
    if (response.status !== 201 && response.status !== 200) {
      let description = '';
      try {
        const parsed = JSON.parse(response.body.toString('utf8')) as { description?: unknown };
        if (typeof parsed.description === 'string') description = parsed.description.slice(0, 300);
      } catch {
        // Not JSON: the status alone.
      }
      throw new NdcHttpError(
        response.status,
        `POST /payment/tokens: HTTP ${response.status}${description ? ` ${description}` : ''}`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.body.toString('utf8'));
    } catch (error) {
      throw new NdcInvalidResponseError('POST /payment/tokens: body is not JSON', { cause: error });
    }
    const { id, funding, links } = (parsed ?? {}) as { id?: unknown; funding?: unknown; links?: unknown };
    if (typeof id !== 'string' || id === '')
      throw new NdcInvalidResponseError('POST /payment/tokens: no token id in the body');
    if (isFunding(funding)) return { id, funding };
    const hasSelf = Array.isArray(links) && links.some((link) => (link as { rel?: unknown } | null)?.rel === 'self');
    const read = hasSelf && lookUp.funding === true ? await this.tokenFunding(id, options) : undefined;
    return read !== undefined ? { id, funding: read } : { id };
  }

  /** The token's `funding` from `GET /payment/tokens/{id}` (on the payment base URL); undefined when not known. */
  private async tokenFunding(id: string, options: CallOptions): Promise<string | undefined> {
    try {
      const response = await this.send({
        url: new URL(`${this.paymentBase}/payment/tokens/${encodeURIComponent(id)}`),
        method: 'GET',
        headers: { ...this.correlationHeaders(options), Accept: 'application/json' },
      });
      if (response.status !== 200) return undefined;
      const { funding } = (JSON.parse(response.body.toString('utf8')) ?? {}) as { funding?: unknown };
      return isFunding(funding) ? funding : undefined;
    } catch {
      // Unknown funding: the caller treats the card as not debit.
      return undefined;
    }
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /** The answer to an OrderCreateRQ or OrderChangeRQ: the order, or a 3-D Secure challenge (CustomerInputRQ). */
  private orderOrChallenge(body: Buffer): OrderViewResponse | CustomerInputResponse {
    const text = body.toString('utf8');
    if (this.decode(() => ndcRootName(text, this.reading), 'OrderViewRS') !== 'CustomerInputRQ')
      return this.orderView(body);
    const challenge = this.decode(() => decodeCustomerInputRq(text, this.reading), 'CustomerInputRQ');
    const payment = challenge.securePayments[0];
    if (payment?.acsUrl === undefined || payment.spmTxnReference === undefined)
      throw new NdcInvalidResponseError('CustomerInputRQ without SecurePayment ACS_URL and SPM_TxnReference');
    return {
      challenge,
      payment: { ...payment, acsUrl: payment.acsUrl, spmTxnReference: payment.spmTxnReference },
      xml: ndcDocument(text, this.reading, ['CustomerInputRQ']),
    };
  }

  /** Decodes an OrderViewRS in any binding; `xml` is the NDC document itself (out of its envelope). */
  private orderView(body: Buffer): OrderViewResponse {
    const text = body.toString('utf8');
    const rs = this.decode(() => decodeOrderViewRs(text, this.reading), 'OrderViewRS');
    if (rs.kind === 'error') throw new NdcBusinessError(rs.errors);
    return { rs, xml: ndcDocument(text, this.reading, ['OrderViewRS']) };
  }

  private decode<T>(decode: () => T, message: string): T {
    try {
      return decode();
    } catch (error) {
      throw new NdcInvalidResponseError(`undecodable ${message}: ${(error as Error).message}`.slice(0, 500), {
        cause: error,
      });
    }
  }

  private correlationHeaders(options: CallOptions): Record<string, string> {
    const headers: Record<string, string> = {};
    if (options.correlationId !== undefined) headers['X-Correlation-Id'] = options.correlationId;
    if (options.transactionId !== undefined) headers['X-TransactionIdentifier'] = options.transactionId;
    return headers;
  }

  /** POSTs an encoded NDC message of `root` in the configured binding. */
  private async postXml(path: string, root: string, xml: string, options: CallOptions): Promise<{ body: Buffer }> {
    const response = await this.send({
      url: new URL(`${this.retailBase}${path}`),
      method: 'POST',
      headers: {
        ...this.correlationHeaders(options),
        Accept: this.accept,
        ...bindingHeaders(this.binding, root, this.mediaType),
        Authorization: this.authorization,
      },
      body: wrapInBinding(xml, this.binding, this.exchange),
    });
    return { body: this.expectStatus(response, 200, true) };
  }

  /** Returns the body of an expected status, else throws {@link NdcHttpError} (with NDC errors when the body has some). */
  private expectStatus(response: RawResponse, expected: number, xml: boolean): Buffer {
    if (response.status === expected) return response.body;
    let ndcErrors: NdcError[] = [];
    if (xml && response.body.length > 0) {
      try {
        const rs = decodeOrderViewRs(response.body, this.reading) as OrderViewRs;
        if (rs.kind === 'error') ndcErrors = rs.errors;
      } catch {
        // Not an NDC error document: keep the status alone.
      }
    }
    const detail = ndcErrors.length > 0 ? ` ${ndcErrors.map((e) => `${e.code}: ${e.text}`).join('; ')}` : '';
    throw new NdcHttpError(response.status, `HTTP ${response.status}${detail}`, ndcErrors);
  }

  /**
   * One HTTP exchange through the circuit breaker: refused at once while it is open; a response
   * below 500 (other than 429) closes it, a transient failure counts against it.
   */
  private async send(request: RawRequest): Promise<RawResponse> {
    const circuit = this.circuit;
    if (circuit === undefined) return this.exchangeOnce(request);
    circuit.before();
    try {
      const response = await this.exchangeOnce(request);
      if (response.status >= 500 || response.status === 429) circuit.failure();
      else circuit.success();
      return response;
    } catch (error) {
      if (error instanceof NdcClientError && error.transient) circuit.failure();
      throw error;
    }
  }

  /** One HTTP exchange with the timeout and failure classification ({@link HttpExchange}). */
  private exchangeOnce(request: RawRequest): Promise<RawResponse> {
    const secure = request.url.protocol === 'https:';
    const body = request.body !== undefined ? Buffer.from(request.body, 'utf8') : undefined;
    const headers: Record<string, string> = {
      ...request.headers,
      'Accept-Encoding': 'gzip, deflate',
      Connection: 'keep-alive',
    };
    if (body !== undefined) headers['Content-Length'] = String(body.length);
    // W3C `traceparent` of the active span (the worker's `NDC <operation>` client span), so the
    // airline's server span joins the booking's trace; nothing while tracing is off.
    propagation.inject(context.active(), headers);
    return new Promise<RawResponse>((resolve, reject) => {
      const req = (secure ? https : http).request(request.url, {
        method: request.method,
        headers,
        agent: secure ? this.httpsAgent : this.httpAgent,
      });
      new HttpExchange(`${request.method} ${request.url.pathname}`, resolve, reject).watch(req, this.timeoutMs);
      req.end(body);
    });
  }
}

/** Socket errors that mean the connection was never made (the request was certainly not sent). */
const CONNECT_FAILURES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

/**
 * One request in flight: settles once, with the response or with the first failure, classified by
 * how far the exchange got (connected, request fully written) so that callers know whether the
 * request may have reached the airline. Every wrapped error is kept as `cause`.
 */
class HttpExchange {
  private settled = false;
  private written = false;
  private connected = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly what: string,
    private readonly resolve: (response: RawResponse) => void,
    private readonly reject: (error: NdcClientError) => void,
  ) {}

  /** Follows `req` through connect, write and response, and fails it after `timeoutMs`. */
  watch(req: http.ClientRequest, timeoutMs: number): void {
    this.timer = setTimeout(() => {
      this.fail(new NdcTransportError('TIMEOUT', `${this.what}: no response within ${timeoutMs} ms`, this.written));
      req.destroy();
    }, timeoutMs);
    req.on('socket', (socket) => {
      // A reused keep-alive socket is already connected.
      if (!(socket as { connecting?: boolean }).connecting) this.connected = true;
      else socket.once('connect', () => (this.connected = true));
    });
    req.on('finish', () => (this.written = true));
    req.on('error', (error: NodeJS.ErrnoException) => this.requestFailed(error));
    req.on('response', (res) => this.read(req, res));
  }

  private fail(error: NdcClientError): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.reject(error);
  }

  /** A socket error: CONNECT when the connection was never made, else NETWORK. */
  private requestFailed(error: NodeJS.ErrnoException): void {
    const code = error.code ?? 'UNKNOWN';
    if (!this.connected && CONNECT_FAILURES.has(code))
      this.fail(
        new NdcTransportError('CONNECT', `${this.what}: cannot connect (${code})`, false, code, { cause: error }),
      );
    else
      this.fail(
        new NdcTransportError('NETWORK', `${this.what}: connection failed (${code})`, this.written, code, {
          cause: error,
        }),
      );
  }

  /** Reads the (decompressed) body up to {@link MAX_BODY_BYTES}, then resolves. */
  private read(req: http.ClientRequest, res: http.IncomingMessage): void {
    const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
    let stream: Readable = res;
    if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(createGunzip());
    else if (encoding === 'deflate') stream = res.pipe(createInflate());
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      this.fail(new NdcInvalidResponseError(`${this.what}: response larger than ${MAX_BODY_BYTES} bytes`));
      req.destroy();
    });
    stream.on('error', (error: NodeJS.ErrnoException) => this.fail(this.bodyFailure(res.statusCode ?? 0, error)));
    res.on('aborted', () =>
      this.fail(new NdcTransportError('NETWORK', `${this.what}: response interrupted (aborted)`, true, 'ECONNRESET')),
    );
    stream.on('end', () => {
      if (this.settled) return;
      this.settled = true;
      clearTimeout(this.timer);
      this.resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
    });
  }

  /** What a body that cannot be read means: the status of a 5xx/429, a corrupt body, or a broken connection. */
  private bodyFailure(status: number, error: NodeJS.ErrnoException): NdcClientError {
    const corrupt = error.code === 'Z_DATA_ERROR' || error.code === 'Z_BUF_ERROR';
    // The status already says what happened; the body of a 5xx is only a courtesy.
    if (corrupt && (status >= 500 || status === 429))
      return new NdcHttpError(status, `HTTP ${status} (body not readable: ${error.code})`, [], { cause: error });
    if (corrupt)
      return new NdcInvalidResponseError(`${this.what}: corrupt compressed body (${error.code})`, { cause: error });
    return new NdcTransportError(
      'NETWORK',
      `${this.what}: response interrupted (${error.code ?? error.message})`,
      true,
      error.code,
      { cause: error },
    );
  }
}

/** A card funding word as the token answers give it (`credit`, `debit`, ...). */
function isFunding(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z]{1,20}$/.test(value);
}
