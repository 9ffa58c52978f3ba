/**
 * The request pipeline of the XML retail endpoints, in order: Accept (406),
 * Content-Type (415), body size (413), routing by root element, fault
 * simulation, decoding (400 with an NDC error), the operation itself
 * (business errors: 200 with an NDC error, as the spec's 913) and encoding.
 * Every XML answer, errors included, is a message of the response root the
 * request asked for, with TimeStamp, TransactionIdentifier and CorrelationID set.
 */
import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AirlineError, ndcError } from '../airline.errors';
import type { AirlineClock } from '../airline.ports';
import type { AirlineConfig } from '../airline.config';
import { NdcDecodeError, ndcRootName } from '../../ndc';
import type { MessageHeader, NdcError, OrderViewRs } from '../../ndc/ndc.model';
import type { FaultOperation } from '../faults/faults.service';
import type { FaultRunner } from '../faults/fault-runner';
import { BodyTooLargeError, readBody } from './body';
import { isAcceptedContentType, negotiateXml } from './media-type';
import { type HttpReply, sendReply, textReply } from './reply';
import { formatLocalTimestamp } from './timestamp';
import { type NdcRequest, type NdcResponse, type RqRoot, type RsRoot, decodeRq, encodeRs } from './ndc-codec';
import { type ShoppingCache, patchHeader, sentinelHeader } from './shopping-cache';

/** Echo of the request identifiers into the response header. */
export interface EchoIds {
  transactionIdentifier?: string;
  correlationId?: string;
}

/** One operation of a route, chosen by the request's root element. */
export interface NdcOperation {
  fault: FaultOperation;
  rsRoot: RsRoot;
  /** Runs the decoded request; may throw {@link AirlineError}. */
  execute(rq: NdcRequest, req: IncomingMessage): NdcResponse | Promise<NdcResponse>;
  /** Response cache of the operation (AirShopping only). */
  cache?: ShoppingCache;
}

export interface NdcRoute {
  /** Response root for errors found before the request root is known. */
  errorRoot: RsRoot;
  /** Request root element name -> operation. */
  operations: Record<string, NdcOperation>;
}

/** NDC error code of request-level problems (malformed, too large, wrong media type). */
const INVALID = 'INVALID_REQUEST' as const;

/** Schema bounds of the echoed ids (StringLength1to32 / StringLength1to64 in 17.2). */
const ECHO_LIMITS = { transactionIdentifier: 32, correlationId: 64 } as const;
const ECHO_HEADERS = { transactionIdentifier: 'X-TransactionIdentifier', correlationId: 'X-Correlation-Id' } as const;

function headerValue(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

/**
 * Ids to echo from the X-TransactionIdentifier / X-Correlation-Id headers. A value the
 * schema cannot carry in the response root is left out (GET refuses it with 400 first).
 */
function headerEcho(req: IncomingMessage): EchoIds {
  const tx = headerValue(req.headers['x-transactionidentifier']);
  const corr = headerValue(req.headers['x-correlation-id']);
  return {
    transactionIdentifier: tx && tx.length <= ECHO_LIMITS.transactionIdentifier ? tx : undefined,
    correlationId: corr && corr.length <= ECHO_LIMITS.correlationId ? corr : undefined,
  };
}

/** Why an echo header is unusable (too long for the response root), or undefined. */
function invalidEchoHeader(req: IncomingMessage): string | undefined {
  const values = {
    transactionIdentifier: headerValue(req.headers['x-transactionidentifier']),
    correlationId: headerValue(req.headers['x-correlation-id']),
  };
  for (const key of ['transactionIdentifier', 'correlationId'] as const) {
    const v = values[key];
    if (v && v.length > ECHO_LIMITS[key]) {
      return `header ${ECHO_HEADERS[key]} must be 1 to ${ECHO_LIMITS[key]} characters, got ${v.length}`;
    }
  }
  return undefined;
}

/** Result of the GET of orders: the OrderViewRS and, when orders were found, a weak ETag. */
export interface OrdersLookup {
  rs: OrderViewRs;
  etag?: string;
}

/** True when If-None-Match lists `etag` (weak comparison) or is `*`. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/**
 * Results of a pure function of one header value, remembered for the few
 * distinct values clients send (forgotten all at once past {@link HeaderMemo.MAX}).
 */
export class HeaderMemo<T> {
  static readonly MAX = 64;
  private readonly values = new Map<string | undefined, T>();

  get(header: string | undefined, compute: (header: string | undefined) => T): T {
    if (this.values.has(header)) return this.values.get(header) as T;
    const value = compute(header);
    if (header === undefined || header.length <= 256) {
      if (this.values.size >= HeaderMemo.MAX) this.values.clear();
      this.values.set(header, value);
    }
    return value;
  }
}

export class NdcPipeline {
  private readonly logger = new Logger('AirlineRetail');
  /** Accept header -> media type to answer with (clients repeat the same few headers). */
  private readonly negotiated = new HeaderMemo<string | undefined>();
  /** Content-Type header -> accepted. */
  private readonly acceptedTypes = new HeaderMemo<boolean>();

  constructor(
    private readonly config: AirlineConfig,
    private readonly clock: AirlineClock,
    private readonly faults: FaultRunner,
  ) {}

  /** Response root attributes: Target Test, Version 17.2, local TimeStamp, echoed ids. */
  header(echo: EchoIds): MessageHeader {
    const h: MessageHeader = { target: 'Test', version: '17.2', timeStamp: formatLocalTimestamp(this.clock.now()) };
    if (echo.transactionIdentifier) h.transactionIdentifier = echo.transactionIdentifier;
    if (echo.correlationId) h.correlationId = echo.correlationId;
    return h;
  }

  /** An XML reply of `model` (root attributes replaced by {@link header}). */
  xmlReply(status: number, contentType: string, root: RsRoot, model: NdcResponse, echo: EchoIds, headers?: Record<string, string>): HttpReply {
    const withHeader = { ...model, ...this.header(echo) } as NdcResponse;
    return {
      status,
      contentType: `${contentType};charset=UTF-8`,
      body: encodeRs(root, withHeader),
      headers,
    };
  }

  /** An NDC error response of root `root`. */
  errorReply(status: number, contentType: string, root: RsRoot, errors: NdcError[], echo: EchoIds, headers?: Record<string, string>): HttpReply {
    return this.xmlReply(status, contentType, root, { kind: 'error', errors } as unknown as NdcResponse, echo, headers);
  }

  /** Media type to answer with, or a 406 reply. */
  negotiate(req: IncomingMessage): { contentType: string } | { reply: HttpReply } {
    const contentType = this.negotiated.get(req.headers.accept, (accept) => negotiateXml(accept, this.config.mediaVendor));
    if (contentType) return { contentType };
    return {
      reply: textReply(
        406,
        `Not Acceptable: this resource is available as application/vnd.${this.config.mediaVendor}.ndc.v17.2+xml, application/xml or text/xml`,
      ),
    };
  }

  /** Handles one POST of an XML retail route and sends the answer. */
  async handlePost(req: IncomingMessage, res: ServerResponse, route: NdcRoute): Promise<void> {
    const reply = await this.postReply(req, res, route);
    if (reply) sendReply(req, res, reply);
  }

  private async postReply(req: IncomingMessage, res: ServerResponse, route: NdcRoute): Promise<HttpReply | undefined> {
    const negotiated = this.negotiate(req);
    if ('reply' in negotiated) return negotiated.reply;
    const ct = negotiated.contentType;
    const echo = headerEcho(req);
    const requestType = req.headers['content-type'];
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    const accepted = this.acceptedTypes.get(requestType, (type) => isAcceptedContentType(type, this.config.mediaVendor));
    if (!accepted || encoding !== 'identity') {
      const what = encoding !== 'identity' ? `Content-Encoding ${encoding}` : `Content-Type ${requestType ?? '(none)'}`;
      return this.errorReply(415, ct, route.errorRoot, [
        ndcError(INVALID, `Unsupported Media Type: ${what}; send application/vnd.${this.config.mediaVendor}.ndc.v17.2+xml;charset=UTF-8`),
      ], echo);
    }
    let body: string;
    try {
      body = (await readBody(req, this.config.maxBodyBytes)).toString('utf8');
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        return this.errorReply(413, ct, route.errorRoot, [
          ndcError(INVALID, `Payload Too Large: the request body exceeds ${err.limit} bytes`),
        ], echo, { Connection: 'close' });
      }
      throw err;
    }
    let root: string;
    try {
      root = ndcRootName(body, { maxBytes: this.config.maxBodyBytes });
    } catch (err) {
      if (err instanceof NdcDecodeError) return this.decodeErrorReply(ct, route.errorRoot, err, echo);
      throw err;
    }
    const op = route.operations[root];
    if (!op) {
      const expected = Object.keys(route.operations).join(' or ');
      return this.errorReply(400, ct, route.errorRoot, [
        ndcError(INVALID, `expected root ${expected}, got ${root.slice(0, 64)}`),
      ], echo);
    }
    return this.faults.run(op.fault, req, res, () => this.runOperation(req, op, root, body, ct, echo));
  }

  /**
   * Runs one operation: a search the shopping cache remembers is answered at
   * once (no promise on the way), anything else by {@link computeOperation}.
   */
  private runOperation(req: IncomingMessage, op: NdcOperation, root: string, body: string, ct: string, headerIds: EchoIds): HttpReply | Promise<HttpReply> {
    const cacheRequest = op.cache?.request(body);
    if (op.cache && cacheRequest) {
      const ids = cacheRequest.echo;
      const echo: EchoIds = {
        transactionIdentifier: ids.transactionIdentifier ?? headerIds.transactionIdentifier,
        correlationId: ids.correlationId ?? headerIds.correlationId,
      };
      const hit = op.cache.lookup(cacheRequest.key, this.header(echo));
      if (hit) return { status: 200, contentType: `${ct};charset=UTF-8`, body: hit.body, release: hit.release };
    }
    return this.computeOperation(req, op, root, body, ct, headerIds, cacheRequest?.key);
  }

  private async computeOperation(
    req: IncomingMessage,
    op: NdcOperation,
    root: string,
    body: string,
    ct: string,
    headerIds: EchoIds,
    key: string | undefined,
  ): Promise<HttpReply> {
    let rq: NdcRequest;
    try {
      rq = decodeRq(root as RqRoot, body);
    } catch (err) {
      if (err instanceof NdcDecodeError) return this.decodeErrorReply(ct, op.rsRoot, err, headerIds);
      throw err;
    }
    const echo: EchoIds = {
      transactionIdentifier: rq.transactionIdentifier ?? headerIds.transactionIdentifier,
      correlationId: rq.correlationId ?? headerIds.correlationId,
    };
    try {
      const rs = await op.execute(rq, req);
      if (op.cache && key && rs.kind !== 'error') {
        const xml = encodeRs(op.rsRoot, { ...rs, ...sentinelHeader() } as NdcResponse);
        op.cache.remember(key, rs as Parameters<ShoppingCache['remember']>[1], xml);
        return { status: 200, contentType: `${ct};charset=UTF-8`, body: patchHeader(xml, this.header(echo)) };
      }
      return this.xmlReply(200, ct, op.rsRoot, rs, echo);
    } catch (err) {
      return this.failureReply(err, ct, op.rsRoot, echo);
    }
  }

  /** Business failure: 200 with the NDC error; anything else: logged, 500 with SYSTEM_ERROR. */
  private failureReply(err: unknown, ct: string, root: RsRoot, echo: EchoIds): HttpReply {
    if (err instanceof AirlineError) return this.errorReply(200, ct, root, [err.ndc], echo);
    this.logger.error(`unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return this.errorReply(500, ct, root, [ndcError('SYSTEM_ERROR', 'Unable to process the request')], echo);
  }

  /** Handles `GET /retail/orders?shoppingResponseId=&agencyID=` with ETag / If-None-Match. */
  async handleGetOrders(
    req: IncomingMessage,
    res: ServerResponse,
    lookup: (shoppingResponseId: string, agencyId: string) => OrdersLookup,
  ): Promise<void> {
    const reply = await this.getOrdersReply(req, res, lookup);
    if (reply) sendReply(req, res, reply);
  }

  private async getOrdersReply(
    req: IncomingMessage,
    res: ServerResponse,
    lookup: (shoppingResponseId: string, agencyId: string) => OrdersLookup,
  ): Promise<HttpReply | undefined> {
    const negotiated = this.negotiate(req);
    if ('reply' in negotiated) return negotiated.reply;
    const ct = negotiated.contentType;
    const echo = headerEcho(req);
    const query = new URL(req.url ?? '/', 'http://request.invalid').searchParams;
    const shoppingResponseId = query.get('shoppingResponseId');
    // The spec spells it agencyID; agencyId is accepted too.
    const agencyId = query.get('agencyID') ?? query.get('agencyId');
    const badHeader = invalidEchoHeader(req);
    if (badHeader) return this.errorReply(400, ct, 'OrderViewRS', [ndcError(INVALID, badHeader)], echo);
    if (!shoppingResponseId || !agencyId) {
      const missing = [!shoppingResponseId && 'shoppingResponseId', !agencyId && 'agencyID'].filter(Boolean).join(' and ');
      return this.errorReply(400, ct, 'OrderViewRS', [ndcError(INVALID, `missing query parameter ${missing}`)], echo);
    }
    return this.faults.run('OrderRetrieve', req, res, async () => {
      try {
        const { rs, etag } = lookup(shoppingResponseId, agencyId);
        if (etag && ifNoneMatchHits(req.headers['if-none-match'], etag)) {
          return { status: 304, headers: { ETag: etag } };
        }
        return this.xmlReply(200, ct, 'OrderViewRS', rs, echo, etag ? { ETag: etag } : undefined);
      } catch (err) {
        return this.failureReply(err, ct, 'OrderViewRS', echo);
      }
    });
  }

  private decodeErrorReply(ct: string, root: RsRoot, err: NdcDecodeError, echo: EchoIds): HttpReply {
    if (err.code === 'TOO_LARGE') {
      return this.errorReply(413, ct, root, [ndcError(INVALID, `Payload Too Large: ${err.message}`)], echo, {
        Connection: 'close',
      });
    }
    return this.errorReply(400, ct, root, [ndcError(INVALID, `${err.code}: ${err.message}`.slice(0, 2000))], echo);
  }
}
