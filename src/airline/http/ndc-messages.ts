/**
 * The airline's side of the NDC codec: decodes a request body into its
 * message (or an {@link NdcHttpError} naming the problem) and encodes answers
 * with the response header every message carries: `Target="Test"`,
 * `Version="17.2"`, the local TimeStamp and the echoed request identifiers.
 */
import { Inject, Injectable } from '@nestjs/common';
import {
  type NdcBinding,
  type NdcExchangeHeader,
  NdcDecodeError,
  bindingContentType,
  detectBinding,
  ndcRootName,
  readExchangeHeader,
  wrapInBinding,
} from '../../ndc';
import type { MessageHeader, NdcError } from '../../ndc/ndc.model';
import type { AirlineConfig } from '../airline.config';
import { ndcError } from '../airline.errors';
import type { AirlineClock } from '../airline.ports';
import { AIRLINE_CLOCK, AIRLINE_CONFIG } from '../airline.tokens';
import type { ExpressRequest } from './express.types';
import {
  type NdcRequest,
  type NdcResponse,
  RESPONSE_ROOT,
  type RqRoot,
  type RsRoot,
  decodeRq,
  encodeRs,
} from './ndc-codec';
import { type EchoIds, NdcHttpError } from './ndc-http.error';
import { NdcMediaTypes } from './ndc-media';
import { formatLocalTimestamp } from './timestamp';

/** Schema bounds of the echoed ids (StringLength1to32 / StringLength1to64 in 17.2). */
const ECHO_LIMITS = { transactionIdentifier: 32, correlationId: 64 } as const;
const ECHO_HEADERS = { transactionIdentifier: 'x-transactionidentifier', correlationId: 'x-correlation-id' } as const;
const ECHO_HEADER_NAMES = {
  transactionIdentifier: 'X-TransactionIdentifier',
  correlationId: 'X-Correlation-Id',
} as const;
const ECHO_ATTRIBUTES = { transactionIdentifier: 'TransactionIdentifier', correlationId: 'CorrelationID' } as const;

function headerValue(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

/** A decoded request: its root element, message and binding. */
export interface DecodedRequest {
  root: RqRoot;
  /** Root of the answer to it (e.g. OrderCancelRS for an OrderCancelRQ on `/retail/orders`). */
  responseRoot: RsRoot;
  message: NdcRequest;
  echo: EchoIds;
  /** Plain NDC or inside a SOAP 1.1 / 1.2 envelope: the answer uses the same. */
  binding: NdcBinding;
}

@Injectable()
export class NdcMessages {
  /** The configured vendor's media types (request types, Accept negotiation). */
  readonly media: NdcMediaTypes;

  constructor(
    @Inject(AIRLINE_CONFIG) private readonly config: AirlineConfig,
    @Inject(AIRLINE_CLOCK) private readonly clock: AirlineClock,
  ) {
    this.media = new NdcMediaTypes(config.mediaVendor);
  }

  /**
   * Ids to echo from the X-TransactionIdentifier / X-Correlation-Id headers
   * (requests without a body, and bodies that cannot be read). A value the
   * schema cannot carry in the response root is left out.
   */
  headerEcho(req: ExpressRequest): EchoIds {
    const echo: EchoIds = {};
    for (const key of ['transactionIdentifier', 'correlationId'] as const) {
      const v = headerValue(req.headers[ECHO_HEADERS[key]]);
      if (v && v.length <= ECHO_LIMITS[key]) echo[key] = v;
    }
    return echo;
  }

  /** Why an echo header is unusable (too long for the response root), or undefined. */
  invalidEchoHeader(req: ExpressRequest): string | undefined {
    for (const key of ['transactionIdentifier', 'correlationId'] as const) {
      const v = headerValue(req.headers[ECHO_HEADERS[key]]);
      if (v && v.length > ECHO_LIMITS[key]) {
        return `header ${ECHO_HEADER_NAMES[key]} must be 1 to ${ECHO_LIMITS[key]} characters, got ${v.length}`;
      }
    }
    return undefined;
  }

  /**
   * Decodes `body`, whose root must be one of `roots`; errors answer with the
   * request root's response root once the root is known, else with `responseRoot`: 400 for anything that is not such a message, 413 past the
   * size limit. The ids to echo come from the body's root element when it has
   * them, else from the headers.
   */
  decode(req: ExpressRequest, body: string, roots: readonly RqRoot[], responseRoot: RsRoot): DecodedRequest {
    const fromHeaders = this.headerEcho(req);
    const binding = detectBinding(body);
    const opts = { maxBytes: this.config.maxBodyBytes, extensionNamespace: this.config.extensionNamespace };
    let root: string;
    try {
      root = ndcRootName(body, opts);
    } catch (err) {
      throw this.decodeFailure(err, responseRoot, fromHeaders, binding);
    }
    if (!(roots as readonly string[]).includes(root)) {
      const echo = { ...fromHeaders, ...rootEcho(body) };
      const error = ndcError('INVALID_REQUEST', `expected root ${roots.join(' or ')}, got ${root.slice(0, 64)}`);
      throw new NdcHttpError(400, responseRoot, [error], echo, {}, binding);
    }
    const rsRoot = RESPONSE_ROOT[root as RqRoot];
    let message: NdcRequest;
    try {
      message = decodeRq(root as RqRoot, body, opts);
    } catch (err) {
      throw this.decodeFailure(err, rsRoot, { ...fromHeaders, ...rootEcho(body) }, binding);
    }
    const echo = {
      transactionIdentifier: message.transactionIdentifier ?? fromHeaders.transactionIdentifier,
      correlationId: message.correlationId ?? fromHeaders.correlationId,
    };
    if (binding === 'ndcexchange') {
      const mismatch = this.checkExchangeHeader(readExchangeHeader(body) ?? {}, message);
      if (mismatch)
        throw new NdcHttpError(400, rsRoot, [ndcError('EXCHANGE_HEADER_MISMATCH', mismatch)], echo, {}, binding);
    }
    return { root: root as RqRoot, responseRoot: rsRoot, message, binding, echo };
  }

  /**
   * What a hub-facing airline checks in the NDC Exchange header beside the schema (read by the
   * codec): the hub routed the message to this airline (`Recipient/Company`, when given), and the
   * seller the hub vouches for (`Sender/SellerID`) is the agency the message acts for: a payload
   * naming another AgencyID is refused; one naming none acts for the seller (its AgencyID is
   * filled in, so orders and responses belong to it). Undefined when all agree.
   */
  private checkExchangeHeader(header: NdcExchangeHeader, message: NdcRequest): string | undefined {
    const airline = this.config.airlineCode;
    if (header.recipient !== undefined && header.recipient !== airline)
      return `NDCMSG_Header/Recipient/Company ${header.recipient} is not this airline (${airline})`;
    const seller = header.sellerId;
    if (seller === undefined || !('party' in message)) return undefined;
    if (message.party.agencyId === undefined) message.party.agencyId = seller;
    if (message.party.agencyId !== seller)
      return `NDCMSG_Header/Sender/SellerID ${seller} does not match the message's AgencyID ${message.party.agencyId}`;
    return undefined;
  }

  private decodeFailure(err: unknown, root: RsRoot, echo: EchoIds, binding: NdcBinding): unknown {
    if (!(err instanceof NdcDecodeError)) return err;
    if (err.code === 'UNSUPPORTED_SCHEMA')
      return new NdcHttpError(400, root, [ndcError('UNSUPPORTED_SCHEMA', err.message)], echo, {}, binding);
    if (err.code === 'TOO_LARGE') {
      const error = ndcError('INVALID_REQUEST', `Payload Too Large: ${err.message}`);
      return new NdcHttpError(413, root, [error], echo, { Connection: 'close' }, binding);
    }
    return new NdcHttpError(
      400,
      root,
      [ndcError('INVALID_REQUEST', `${err.code}: ${err.message}`.slice(0, 2000))],
      echo,
      {},
      binding,
    );
  }

  /** Response root attributes: Target Test, Version 17.2, local TimeStamp, echoed ids. */
  header(echo: EchoIds): MessageHeader {
    const h: MessageHeader = { target: 'Test', version: '17.2', timeStamp: formatLocalTimestamp(this.clock.now()) };
    if (echo.transactionIdentifier) h.transactionIdentifier = echo.transactionIdentifier;
    if (echo.correlationId) h.correlationId = echo.correlationId;
    return h;
  }

  /**
   * The XML of `model` as a `root` message with the response header for
   * `echo`, in `binding` (plain, or in a SOAP envelope).
   */
  encode(root: RsRoot, model: NdcResponse, echo: EchoIds, binding: NdcBinding): string {
    const xml = encodeRs(root, { ...model, ...this.header(echo) } as NdcResponse, {
      extensionNamespace: this.config.extensionNamespace,
    });
    // An NDC Exchange answer: the airline is the sender, in the hub's namespace.
    return wrapInBinding(xml, binding, { namespace: this.config.exchangeNamespace, sellerId: this.config.airlineCode });
  }

  /** The XML of an NDC error message of `root`. */
  encodeErrors(root: RsRoot, errors: NdcError[], echo: EchoIds, binding: NdcBinding): string {
    return this.encode(root, { kind: 'error', errors } as unknown as NdcResponse, echo, binding);
  }

  /** Content-Type of an answer in `binding` whose negotiated NDC media type is `mediaType`. */
  contentType(mediaType: string, binding: NdcBinding): string {
    return bindingContentType(binding, `${mediaType};charset=UTF-8`);
  }
}

/**
 * TransactionIdentifier and CorrelationID of the root element of a
 * well-formed document whose content did not decode, so that its error answer
 * still echoes them. Only values the response root can carry are kept.
 */
function rootEcho(xml: string): EchoIds {
  const start = /<(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*(?=[\s/>])[^>]*>/.exec(
    xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''),
  );
  const echo: EchoIds = {};
  if (!start) return echo;
  for (const key of ['transactionIdentifier', 'correlationId'] as const) {
    const m = new RegExp(`\\s${ECHO_ATTRIBUTES[key]}\\s*=\\s*(?:"([^"<&]*)"|'([^'<&]*)')`).exec(start[0]);
    const v = m?.[1] ?? m?.[2];
    if (v && v.length <= ECHO_LIMITS[key]) echo[key] = v;
  }
  return echo;
}
