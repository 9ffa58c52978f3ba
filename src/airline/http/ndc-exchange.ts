/**
 * The one path of every retail request, in Nest's own terms:
 *
 *     BasicAuthGuard -> NdcExchangeInterceptor (negotiate, decode, fault)
 *       -> controller -> domain service -> NdcExchangeInterceptor (encode) -> reply
 *
 * A route declares what it accepts with {@link NdcRoute}; its handler gets the
 * decoded message through {@link NdcMessage} and returns the domain's answer
 * (an NDC response model). Business failures ({@link AirlineError}, and
 * schema-valid messages lacking an element the operation needs) become NDC
 * error answers with HTTP 200; whatever cannot become a domain call
 * ({@link NdcHttpError}, 406, simulated faults) is answered by the exception
 * filter. Every XML answer, errors included, is a message of the route's
 * response root with the response header (see NdcMessages).
 */
import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  type StreamableFile,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Observable, defaultIfEmpty, from, lastValueFrom, map, throwError } from 'rxjs';
import { type NdcBinding, NdcMissingElementError } from '../../ndc';
import type { NdcError } from '../../ndc/ndc.model';
import { AirlineError, airlineErrorName, ndcError } from '../airline.errors';
import { FaultRunner } from '../faults/fault-runner';
import {
  type ArmedFault,
  type FaultMode,
  type FaultOperation,
  FaultService,
  LOOKUP_MODES,
} from '../faults/faults.service';
import type { ExpressRequest, ExpressResponse } from './express.types';
import { type NdcRequest, type NdcResponse, type RqRoot, type RsRoot, isCustomerInputRq } from './ndc-codec';
import { type EchoIds, NdcHttpError, NotAcceptableError } from './ndc-http.error';
import { NdcMessages } from './ndc-messages';
import { type XmlPayload, xmlPayload, xmlStream } from './ndc-reply';
import { noteNdcErrors } from '../observability/ndc-errors.note';

/** What a retail route accepts and answers. */
export interface NdcRouteSpec {
  /** Root of the route's answers and errors (once the request root is known: the root answering it). */
  responseRoot: RsRoot;
  /** Request roots the body may have, each with its simulator operation (routes with a body). */
  requests?: Partial<Record<RqRoot, FaultOperation>>;
  /** Simulator operation of a route without a body (the GET of orders). */
  operation?: FaultOperation;
}

const NDC_ROUTE = Symbol('NDC_ROUTE');

/** Declares a handler as a retail route (see {@link NdcRouteSpec}). */
export const NdcRoute = (spec: NdcRouteSpec): MethodDecorator => SetMetadata(NDC_ROUTE, spec);

/** One retail exchange, as the interceptor prepared it for the handler. */
export interface NdcExchange {
  /** Media type of the answer (from Accept). */
  contentType: string;
  responseRoot: RsRoot;
  echo: EchoIds;
  /** Root and message of the request body (routes with a body). */
  root?: RqRoot;
  message?: NdcRequest;
  /** Binding of the request body, and so of the answer (plain for the GET). */
  binding: NdcBinding;
  /** The simulator fault applied to this call, if any. */
  fault?: ArmedFault;
}

/** Where the exchange is kept for the request (Express's per-request locals). */
const EXCHANGE = 'ndcExchange';

/** The exchange of this request, if the interceptor opened one. */
export function findExchange(res: ExpressResponse): NdcExchange | undefined {
  return res.locals[EXCHANGE] as NdcExchange | undefined;
}

function exchangeOf(res: ExpressResponse): NdcExchange {
  const exchange = findExchange(res);
  if (!exchange) throw new Error('no NDC exchange on this request: the route lacks @NdcRoute');
  return exchange;
}

/** The handler parameter that receives the decoded request message. */
export const NdcMessage = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext) => exchangeOf(ctx.switchToHttp().getResponse()).message,
);

/** The handler parameter that receives the whole {@link NdcExchange}. */
export const Exchange = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  exchangeOf(ctx.switchToHttp().getResponse()),
);

/** The agency a request is made for: TravelAgencySender/AgencyID, or `agencyID` of the query. */
function agencyOf(message: NdcRequest | undefined, req: ExpressRequest): string | undefined {
  // A CustomerInputRS names no agency: only faults armed for every agency reach it.
  if (message) return 'party' in message ? message.party?.agencyId : undefined;
  const q = req.query.agencyID ?? req.query.agencyId;
  return typeof q === 'string' ? q : undefined;
}

/** For a fault of mode `ndc-error`: a handler answering its error instead of the operation. */
function simulatedError(fault: ArmedFault | undefined): CallHandler | undefined {
  if (fault?.mode !== 'ndc-error' || fault.errorCode === undefined) return undefined;
  const name = airlineErrorName(fault.errorCode);
  if (name === undefined) return undefined;
  return { handle: () => throwError(() => new AirlineError(name, 'simulated fault')) };
}

/**
 * The NDC error of a failure the client can act on: an {@link AirlineError},
 * or a schema-valid message lacking an element the operation needs (701
 * naming the element); undefined for anything else.
 */
function businessError(err: unknown): NdcError | undefined {
  if (err instanceof AirlineError) return err.ndc;
  if (err instanceof NdcMissingElementError) return ndcError('INVALID_REQUEST', `${err.message} (${err.element})`);
  return undefined;
}

@Injectable()
export class NdcExchangeInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(NdcMessages) private readonly messages: NdcMessages,
    @Inject(FaultService) private readonly faults: FaultService,
    @Inject(FaultRunner) private readonly runner: FaultRunner,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<StreamableFile | undefined> {
    const spec = this.reflector.get<NdcRouteSpec | undefined>(NDC_ROUTE, context.getHandler());
    if (!spec) throw new Error(`${context.getClass().name}.${context.getHandler().name} lacks @NdcRoute`);
    const http = context.switchToHttp();
    const req = http.getRequest<ExpressRequest>();
    const res = http.getResponse<ExpressResponse>();
    const exchange = this.open(req, spec);
    res.locals[EXCHANGE] = exchange;
    const operation = exchange.root ? spec.requests?.[exchange.root] : spec.operation;
    if (operation) {
      // Lookup modes only concern the GET of orders.
      const applies = (mode: FaultMode) => !LOOKUP_MODES.includes(mode) || exchange.message === undefined;
      exchange.fault = this.faults.take(operation, agencyOf(exchange.message, req), applies);
    }
    // The answer touches the response only once the fault has let it through (a fault may replace it).
    const handler = simulatedError(exchange.fault) ?? next;
    return from(this.runner.run(exchange.fault, req, res, () => this.answer(req, res, exchange, handler))).pipe(
      map((payload) => payload && xmlStream(res, payload)),
    );
  }

  /** Negotiation (406) and, for a route with a body, its media type (415) and decoding (400, 413). */
  private open(req: ExpressRequest, spec: NdcRouteSpec): NdcExchange {
    const contentType = this.messages.media.negotiate(req);
    if (!contentType) throw new NotAcceptableError('no acceptable XML media type');
    if (!spec.requests) {
      const bad = this.messages.invalidEchoHeader(req);
      const echo = this.messages.headerEcho(req);
      if (bad) throw new NdcHttpError(400, spec.responseRoot, [ndcError('INVALID_REQUEST', bad)], echo);
      return { contentType, responseRoot: spec.responseRoot, echo, binding: 'plain' };
    }
    if (!this.messages.media.isRequestType(req)) {
      const what = `Content-Type ${req.headers['content-type'] ?? '(none)'}`;
      throw new NdcHttpError(
        415,
        spec.responseRoot,
        [ndcError('INVALID_REQUEST', `Unsupported Media Type: ${what}; send ${this.messages.media.ndc};charset=UTF-8`)],
        this.messages.headerEcho(req),
      );
    }
    const body = typeof req.body === 'string' ? req.body : '';
    const decoded = this.messages.decode(req, body, Object.keys(spec.requests) as RqRoot[], spec.responseRoot);
    return { contentType, ...decoded };
  }

  /**
   * Runs the handler and encodes its answer; an {@link AirlineError} is the
   * NDC error answer (HTTP 200). A GET whose ETag matches If-None-Match gets
   * no body (Express answers 304).
   */
  private async answer(
    req: ExpressRequest,
    res: ExpressResponse,
    exchange: NdcExchange,
    next: CallHandler,
  ): Promise<XmlPayload | undefined> {
    let xml: string;
    try {
      const rs = (await lastValueFrom(next.handle().pipe(defaultIfEmpty(undefined)))) as NdcResponse;
      if (req.method === 'GET' && req.fresh) return undefined;
      // An OrderCreate answered with a 3-D Secure challenge is a CustomerInputRQ, not an OrderViewRS.
      const root = rs !== undefined && isCustomerInputRq(rs) ? 'CustomerInputRQ' : exchange.responseRoot;
      xml = this.messages.encode(root, rs, exchange.echo, exchange.binding);
    } catch (err) {
      const error = businessError(err);
      if (!error) throw err;
      res.removeHeader('ETag');
      noteNdcErrors(res, [error]);
      xml = this.messages.encodeErrors(exchange.responseRoot, [error], exchange.echo, exchange.binding);
    }
    return xmlPayload(req, this.messages.contentType(exchange.contentType, exchange.binding), xml);
  }
}
