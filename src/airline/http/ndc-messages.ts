/**
 * The airline's side of the NDC codec, for the exchange and the exception filter: the options
 * of decoding (size limit, extension namespace), the ids an answer echoes, the check of an NDC
 * Exchange header, and the writing of every answer, errors included, with the response header
 * every message carries: `Target="Test"`, `Version="17.2"`, the local TimeStamp (stamped here,
 * and only here) and the echoed `TransactionIdentifier` / `CorrelationID`.
 */
import { Inject, Injectable } from '@nestjs/common';
import {
  type EncodeOptions,
  type NdcBinding,
  type NdcExchangeHeader,
  type ParseOptions,
  bindingContentType,
  ndcRootName,
  ndcRootTag,
  readExchangeHeader,
  wrapInBinding,
} from '../../ndc';
import type { MessageHeader, NdcError } from '../../ndc/ndc.model';
import type { AirlineConfig } from '../airline.config';
import type { AirlineClock } from '../airline.ports';
import { AIRLINE_CLOCK, AIRLINE_CONFIG } from '../airline.tokens';
import type { ExpressRequest } from './express.types';
import { NdcMediaTypes } from './ndc-media';
import type { ErrorRoot, NdcAnswer, RequestMessage } from './retail.operations';

/** Request identifiers echoed into the response root. */
export interface EchoIds {
  transactionIdentifier?: string;
  correlationId?: string;
}

/** Schema bounds of the echoed ids (StringLength1to32 / StringLength1to64 in 17.2). */
const ECHO_LIMITS = { transactionIdentifier: 32, correlationId: 64 } as const;
const ECHO_HEADERS = { transactionIdentifier: 'x-transactionidentifier', correlationId: 'x-correlation-id' } as const;
const ECHO_HEADER_NAMES = {
  transactionIdentifier: 'X-TransactionIdentifier',
  correlationId: 'X-Correlation-Id',
} as const;
const ECHO_ATTRIBUTES = { transactionIdentifier: 'TransactionIdentifier', correlationId: 'CorrelationID' } as const;

/**
 * Response TimeStamp: local offset form with milliseconds, e.g.
 * `2026-11-21T07:01:02.345+01:00` (the offset of the process's time zone).
 */
export function formatLocalTimestamp(d: Date): string {
  const offsetMinutes = -d.getTimezoneOffset();
  const local = new Date(d.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${hh}:${mm}`;
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

@Injectable()
export class NdcMessages {
  /** The configured vendor's media types (request types, Accept negotiation). */
  readonly media: NdcMediaTypes;
  /** How request bodies are decoded: the body size limit and the extension namespace. */
  readonly parseOptions: ParseOptions;
  private readonly encodeOptions: EncodeOptions;

  constructor(
    @Inject(AIRLINE_CONFIG) private readonly config: AirlineConfig,
    @Inject(AIRLINE_CLOCK) private readonly clock: AirlineClock,
  ) {
    this.media = new NdcMediaTypes(config.mediaVendor);
    this.parseOptions = { maxBytes: config.maxBodyBytes, extensionNamespace: config.extensionNamespace };
    this.encodeOptions = { extensionNamespace: config.extensionNamespace };
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

  /** Ids to echo for a decoded `message`: its own, else those of the headers (`fromHeaders`). */
  messageEcho(message: RequestMessage, fromHeaders: EchoIds): EchoIds {
    return {
      transactionIdentifier: message.transactionIdentifier ?? fromHeaders.transactionIdentifier,
      correlationId: message.correlationId ?? fromHeaders.correlationId,
    };
  }

  /** The local name of the NDC root of `body` (inside any envelope); throws NdcDecodeError. */
  rootOf(body: string): string {
    return ndcRootName(body, this.parseOptions);
  }

  /**
   * What a hub-facing airline checks in the NDC Exchange header of `body` beside the schema
   * (read by the codec): the hub routed the message to this airline (`Recipient/Company`, when
   * given), and the seller the hub vouches for (`Sender/SellerID`) is the agency the message
   * acts for: a payload naming another AgencyID is refused; one naming none acts for the seller
   * (its AgencyID is filled in, so orders and responses belong to it). Undefined when all agree.
   */
  exchangeHeaderMismatch(body: string, message: RequestMessage): string | undefined {
    const header: NdcExchangeHeader = readExchangeHeader(body) ?? {};
    const airline = this.config.airlineCode;
    if (header.recipient !== undefined && header.recipient !== airline)
      return `NDCMSG_Header/Recipient/Company ${header.recipient} is not this airline (${airline})`;
    const seller = header.sellerId;
    if (seller === undefined || message.party === undefined) return undefined;
    message.party.agencyId ??= seller;
    if (message.party.agencyId !== seller)
      return `NDCMSG_Header/Sender/SellerID ${seller} does not match the message's AgencyID ${message.party.agencyId}`;
    return undefined;
  }

  /** The response header of every answer: Target Test, Version 17.2, the local TimeStamp, the echoed ids. */
  header(echo: EchoIds): MessageHeader {
    const h: MessageHeader = { target: 'Test', version: '17.2', timeStamp: formatLocalTimestamp(this.clock.now()) };
    if (echo.transactionIdentifier) h.transactionIdentifier = echo.transactionIdentifier;
    if (echo.correlationId) h.correlationId = echo.correlationId;
    return h;
  }

  /** The XML of `answer` with the response header for `echo`, in `binding` (plain, or in an envelope). */
  encode(answer: NdcAnswer, echo: EchoIds, binding: NdcBinding): string {
    return this.wrap(answer.xml(this.header(echo), this.encodeOptions), binding);
  }

  /** The XML of an NDC error message of `root` carrying `errors`. */
  encodeErrors(root: ErrorRoot, errors: NdcError[], echo: EchoIds, binding: NdcBinding): string {
    return this.wrap(root.encode({ ...this.header(echo), kind: 'error', errors }, this.encodeOptions), binding);
  }

  /** Content-Type of an answer in `binding` whose negotiated NDC media type is `mediaType`. */
  contentType(mediaType: string, binding: NdcBinding): string {
    return bindingContentType(binding, `${mediaType};charset=UTF-8`);
  }

  private wrap(xml: string, binding: NdcBinding): string {
    // An NDC Exchange answer: the airline is the sender, in the hub's namespace.
    return wrapInBinding(xml, binding, { namespace: this.config.exchangeNamespace, sellerId: this.config.airlineCode });
  }
}

/**
 * TransactionIdentifier and CorrelationID of the NDC root element of `xml` (inside any envelope)
 * whose content did not decode, so that its error answer still echoes them. Only values the
 * response root can carry are kept.
 */
export function rootEcho(xml: string): EchoIds {
  const attrs = ndcRootTag(xml)?.attrs ?? '';
  const echo: EchoIds = {};
  for (const key of ['transactionIdentifier', 'correlationId'] as const) {
    const m = new RegExp(`(?:^|\\s)${ECHO_ATTRIBUTES[key]}\\s*=\\s*(?:"([^"<&]*)"|'([^'<&]*)')`).exec(attrs);
    const v = m?.[1] ?? m?.[2];
    if (v && v.length <= ECHO_LIMITS[key]) echo[key] = v;
  }
  return echo;
}
