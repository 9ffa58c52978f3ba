/**
 * The one path of every retail request, in Nest's own terms:
 *
 *     BasicAuthGuard -> NdcExchangeInterceptor (negotiate, decode, fault)
 *       -> controller -> domain service -> NdcExchangeInterceptor (encode) -> reply
 *
 * An NDC message (POST) is decoded by its root through the registry (retail.operations.ts),
 * which says which roots the request's path takes; the GET of orders declares itself with
 * {@link NdcQuery}. The handler gets the decoded message through {@link NdcMessage} and returns
 * the domain's {@link NdcAnswer}. The exchange is opened on the response as soon as the
 * request's media type is negotiated, and learns the response root, binding and ids to echo as
 * decoding goes; whatever is thrown from then on (a message that does not decode, a domain
 * `AirlineError`, a bug) is answered by the exception filter in that exchange.
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
import { type Observable, from, lastValueFrom, map, throwError } from 'rxjs';
import { type NdcBinding, detectBinding } from '../../ndc';
import { AirlineError, airlineErrorName, ndcError } from '../airline.errors';
import { FaultRunner } from '../faults/fault-runner';
import {
  type ArmedFault,
  type FaultMode,
  type FaultOperation,
  FaultService,
  LOOKUP_MODES,
} from '../faults/faults.service';
import { isNotModified } from './conditional';
import type { ExpressRequest, ExpressResponse } from './express.types';
import { NdcRequestError, NotAcceptableError } from './ndc-http.error';
import { type EchoIds, NdcMessages, rootEcho } from './ndc-messages';
import { type XmlPayload, xmlPayload, xmlStream } from './ndc-reply';
import {
  type DecodedMessage,
  type ErrorRoot,
  type NdcAnswer,
  RETAIL_PATHS,
  type RetailOperation,
  type RetailPath,
  operationAt,
  retailPathOf,
  rootsAt,
} from './retail.operations';

/** A retail route without a body (the GET of orders): the root of its answers and its operation. */
export interface NdcQuerySpec {
  answers: ErrorRoot;
  /** Simulator operation. */
  name: FaultOperation;
}

const NDC_QUERY = Symbol('NDC_QUERY');

/** Declares a handler as a retail route without a body (see {@link NdcQuerySpec}). */
export const NdcQuery = (spec: NdcQuerySpec): MethodDecorator => SetMetadata(NDC_QUERY, spec);

/** One retail exchange: what its answer, errors included, is made of. */
export interface NdcExchange {
  /** Media type of the answer (from Accept). */
  contentType: string;
  /** Root of the answer's errors: the path's until the request's root is known, then its operation's. */
  answers: ErrorRoot;
  /** Ids the answer echoes: from the headers, then from the body's root element, then from the message. */
  echo: EchoIds;
  /** Binding of the request body, and so of the answer (plain for the GET). */
  binding: NdcBinding;
  /** The operation of the request body's root, once known. */
  operation?: RetailOperation;
  /** The decoded request body bound to its handler. */
  message?: DecodedMessage;
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
  if (!exchange) throw new Error('no NDC exchange on this request: the route is not a retail route');
  return exchange;
}

/** The handler parameter that receives the decoded request body, bound to its operation's handler. */
export const NdcMessage = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const message = exchangeOf(ctx.switchToHttp().getResponse()).message;
  if (!message) throw new Error('no NDC message on this request: the route has no body');
  return message;
});

/** The handler parameter that receives the whole {@link NdcExchange}. */
export const Exchange = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  exchangeOf(ctx.switchToHttp().getResponse()),
);

/** The agency a request is made for: TravelAgencySender/AgencyID, or `agencyID` of the query. */
function agencyOf(message: DecodedMessage | undefined, req: ExpressRequest): string | undefined {
  // A CustomerInputRS names no agency: only faults armed for every agency reach it.
  if (message) return message.message.party?.agencyId;
  const q = req.query.agencyID ?? req.query.agencyId;
  return typeof q === 'string' ? q : undefined;
}

/** For a fault of mode `ndc-error`: a handler answering its error instead of the operation. */
function simulatedError(fault: ArmedFault | undefined): CallHandler<NdcAnswer> | undefined {
  if (fault?.mode !== 'ndc-error' || fault.errorCode === undefined) return undefined;
  const name = airlineErrorName(fault.errorCode);
  if (name === undefined) return undefined;
  return { handle: () => throwError(() => new AirlineError(name, 'simulated fault')) };
}

/** The refusal of a root that `path` does not take, naming it and the roots it takes. */
function unsupportedRoot(root: string, path: RetailPath): NdcRequestError {
  const text = `${root.slice(0, 64)} is not served at /retail/${path}; send ${rootsAt(path).join(', ')}`;
  return new NdcRequestError(400, ndcError('INVALID_REQUEST', text));
}

@Injectable()
export class NdcExchangeInterceptor implements NestInterceptor<NdcAnswer, StreamableFile | undefined> {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(NdcMessages) private readonly messages: NdcMessages,
    @Inject(FaultService) private readonly faults: FaultService,
    @Inject(FaultRunner) private readonly runner: FaultRunner,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler<NdcAnswer>): Observable<StreamableFile | undefined> {
    const query = this.reflector.get<NdcQuerySpec | undefined>(NDC_QUERY, context.getHandler());
    const http = context.switchToHttp();
    const req = http.getRequest<ExpressRequest>();
    const res = http.getResponse<ExpressResponse>();
    const exchange = query ? this.openQuery(req, res, query) : this.openMessage(req, res);
    exchange.fault = this.takeFault(exchange, req, query?.name);
    // The answer touches the response only once the fault has let it through (a fault may replace it).
    const handler = simulatedError(exchange.fault) ?? next;
    return from(this.runner.run(exchange.fault, req, res, () => this.answer(req, res, exchange, handler))).pipe(
      map((payload) => payload && xmlStream(res, payload)),
    );
  }

  /** The exchange of a route without a body: negotiation (406) and the echo headers (400). */
  private openQuery(req: ExpressRequest, res: ExpressResponse, query: NdcQuerySpec): NdcExchange {
    const exchange = this.open(req, res, query.answers, 'plain');
    const bad = this.messages.invalidEchoHeader(req);
    if (bad) throw new NdcRequestError(400, ndcError('INVALID_REQUEST', bad));
    return exchange;
  }

  /**
   * The exchange of an NDC message: negotiation (406), its media type (415), its root, which the
   * path must take (400 naming it), and its decoding (400, 413), in these phases.
   */
  private openMessage(req: ExpressRequest, res: ExpressResponse): NdcExchange {
    const path = retailPathOf(req.route?.path ?? req.path);
    if (path === undefined) throw new Error(`${req.path} is not a path of the NDC operations (retail.operations.ts)`);
    const body = typeof req.body === 'string' ? req.body : '';
    const exchange = this.open(req, res, RETAIL_PATHS[path], detectBinding(body));
    if (!this.messages.media.isRequestType(req)) {
      const what = `Content-Type ${req.headers['content-type'] ?? '(none)'}`;
      const text = `Unsupported Media Type: ${what}; send ${this.messages.media.ndc};charset=UTF-8`;
      throw new NdcRequestError(415, ndcError('INVALID_REQUEST', text));
    }
    const root = this.messages.rootOf(body);
    exchange.echo = { ...exchange.echo, ...rootEcho(body) };
    const operation = operationAt(path, root);
    if (!operation) throw unsupportedRoot(root, path);
    exchange.answers = operation.answers;
    const decoded = operation.decode(body, this.messages.parseOptions);
    exchange.echo = this.messages.messageEcho(decoded.message, this.messages.headerEcho(req));
    const mismatch = exchange.binding === 'ndcexchange' && this.messages.exchangeHeaderMismatch(body, decoded.message);
    if (mismatch) throw new NdcRequestError(400, ndcError('EXCHANGE_HEADER_MISMATCH', mismatch));
    exchange.operation = operation;
    exchange.message = decoded;
    return exchange;
  }

  /** Negotiates the answer's media type (406 when none) and opens the exchange on the response. */
  private open(req: ExpressRequest, res: ExpressResponse, answers: ErrorRoot, binding: NdcBinding): NdcExchange {
    const contentType = this.messages.media.negotiate(req);
    if (!contentType) throw new NotAcceptableError('no acceptable XML media type');
    const exchange: NdcExchange = { contentType, answers, echo: this.messages.headerEcho(req), binding };
    res.locals[EXCHANGE] = exchange;
    return exchange;
  }

  /** Takes the simulator fault armed for this call's operation and agency, if any. */
  private takeFault(exchange: NdcExchange, req: ExpressRequest, queryName?: FaultOperation): ArmedFault | undefined {
    const operation = exchange.operation?.name ?? queryName;
    if (!operation) return undefined;
    // Lookup modes only concern the GET of orders.
    const applies = (mode: FaultMode) => !LOOKUP_MODES.includes(mode) || exchange.message === undefined;
    return this.faults.take(operation, agencyOf(exchange.message, req), applies);
  }

  /**
   * Runs the handler and encodes its answer. An answer with an ETag that `If-None-Match`
   * matches gets no body: 304 (RFC 9110 §13.1.2, whatever `Cache-Control` the request has).
   */
  private async answer(
    req: ExpressRequest,
    res: ExpressResponse,
    exchange: NdcExchange,
    next: CallHandler<NdcAnswer>,
  ): Promise<XmlPayload | undefined> {
    const answer = await lastValueFrom(next.handle());
    if (answer.etag !== undefined) {
      res.setHeader('ETag', answer.etag);
      if (isNotModified(req.headers['if-none-match'], answer.etag)) {
        res.status(304);
        return undefined;
      }
    }
    const xml = this.messages.encode(answer, exchange.echo, exchange.binding);
    return xmlPayload(req, this.messages.contentType(exchange.contentType, exchange.binding), xml);
  }
}
