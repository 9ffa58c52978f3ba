/**
 * The one exit of every failure, in one place:
 * - 401 with the Basic challenge; 406 as plain text; simulated faults (500 text, or the
 *   connection destroyed);
 * - on a retail route, the NDC answer: the domain's {@link AirlineError}s and schema-valid
 *   messages lacking an element the operation needs (HTTP 200), requests that are not a usable
 *   message ({@link NdcRequestError}, a body that does not decode: 400, 413, 415), and anything
 *   unexpected (500, NDC 799, logged with its stack, never with a request body). Each is an NDC
 *   error message of the exchange's response root, in its binding, echoing its ids, with the
 *   time stamp of its answer (ndc-messages.ts);
 * - {@link JsonHttpError}, body reading failures of the JSON endpoints and Nest's HTTP
 *   exceptions (e.g. 404 for unknown paths) as `{code, description}` JSON.
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { NdcDecodeError, NdcMissingElementError } from '../../ndc';
import type { NdcError } from '../../ndc/ndc.model';
import type { AirlineConfig } from '../airline.config';
import { AirlineError, ndcError } from '../airline.errors';
import { UnauthorizedRetailError } from './basic-auth.guard';
import type { ExpressRequest, ExpressResponse } from './express.types';
import { type NdcExchange, findExchange } from './ndc-exchange';
import { JsonHttpError, NdcRequestError, NotAcceptableError, SimulatedFault } from './ndc-http.error';
import { noteNdcErrors } from '../observability/ndc-errors.note';
import type { NdcMessages } from './ndc-messages';
import { sendJsonError, sendText, sendXml, xmlPayload } from './ndc-reply';
import { RETAIL_PATHS, retailPathOf } from './retail.operations';

/** A failure of Express's body parsers (http-errors: `status` and a `type` such as `entity.too.large`). */
interface BodyReadError {
  status: number;
  type: string;
  limit?: number;
}

function isBodyReadError(e: unknown): e is BodyReadError {
  return (
    e instanceof Error &&
    typeof (e as Partial<BodyReadError>).status === 'number' &&
    typeof (e as Partial<BodyReadError>).type === 'string'
  );
}

const LABELS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
};

/** An NDC error answer: its HTTP status, its error and any extra headers. */
interface NdcFailure {
  status: number;
  error: NdcError;
  headers?: Record<string, string>;
}

/** The NDC answer of a failure the client can act on; undefined for anything else (a bug: 500). */
function ndcFailureOf(e: unknown): NdcFailure | undefined {
  if (e instanceof AirlineError) return { status: 200, error: e.ndc };
  if (e instanceof NdcMissingElementError)
    return { status: 200, error: ndcError('INVALID_REQUEST', `${e.message} (${e.element})`) };
  if (e instanceof NdcRequestError) return { status: e.status, error: e.error, headers: e.headers };
  if (e instanceof NdcDecodeError) return decodeFailure(e);
  return undefined;
}

/** A body that is not a message of its root: 400 (704 for another schema), 413 past the size limit. */
function decodeFailure(e: NdcDecodeError): NdcFailure {
  if (e.code === 'UNSUPPORTED_SCHEMA') return { status: 400, error: ndcError('UNSUPPORTED_SCHEMA', e.message) };
  if (e.code === 'TOO_LARGE') {
    const error = ndcError('INVALID_REQUEST', `Payload Too Large: ${e.message}`);
    return { status: 413, error, headers: { Connection: 'close' } };
  }
  return { status: 400, error: ndcError('INVALID_REQUEST', `${e.code}: ${e.message}`.slice(0, 2000)) };
}

@Catch()
export class AirlineExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Airline');
  private readonly realm: string;

  constructor(
    config: AirlineConfig,
    private readonly messages: NdcMessages,
  ) {
    this.realm = `${config.airlineCode} NDC retail`;
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<ExpressRequest>();
    const res = ctx.getResponse<ExpressResponse>();
    if (exception instanceof UnauthorizedRetailError) {
      return sendText(res, 401, 'text/plain; charset=utf-8', 'Unauthorized: Basic credentials required', {
        'WWW-Authenticate': `Basic realm="${this.realm}", charset="UTF-8"`,
      });
    }
    if (exception instanceof NotAcceptableError) {
      return sendText(
        res,
        406,
        'text/plain; charset=utf-8',
        `Not Acceptable: this resource is available as ${this.messages.media.ndc}, application/xml or text/xml`,
      );
    }
    if (exception instanceof SimulatedFault) {
      if (exception.effect === 'reset') return void res.destroy();
      return sendText(res, 500, 'text/plain; charset=utf-8', 'Internal Server Error (simulated fault)');
    }
    const exchange = findExchange(res) ?? this.retailExchange(req);
    if (isBodyReadError(exception)) return this.bodyReadFailure(req, res, exception, exchange);
    const failure = exchange && ndcFailureOf(exception);
    if (failure) return this.sendNdc(req, res, exchange, failure);
    if (exception instanceof JsonHttpError) return sendJsonError(res, exception.status, exception.description);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return sendJsonError(res, status, `${LABELS[status] ?? 'Error'}: ${exception.message}`);
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (res.headersSent) return void res.destroy();
    if (!exchange) return sendJsonError(res, 500, 'Internal Server Error');
    this.sendNdc(req, res, exchange, { status: 500, error: ndcError('SYSTEM_ERROR', 'Unable to process the request') });
  }

  /**
   * The exchange of a retail request that failed before the interceptor opened one (its body
   * could not be read): the path's response root, the header ids, plain XML.
   */
  private retailExchange(req: ExpressRequest): NdcExchange | undefined {
    const path = retailPathOf(req.path);
    if (path === undefined) return undefined;
    const contentType = this.messages.media.negotiate(req) ?? this.messages.media.ndc;
    return { contentType, answers: RETAIL_PATHS[path], echo: this.messages.headerEcho(req), binding: 'plain' };
  }

  /** Why Express's body parser refused the body (413 closes the connection): NDC on a retail path, else JSON. */
  private bodyReadFailure(
    req: ExpressRequest,
    res: ExpressResponse,
    e: BodyReadError,
    retail: NdcExchange | undefined,
  ): void {
    const tooLarge = e.type === 'entity.too.large';
    const headers: Record<string, string> = tooLarge ? { Connection: 'close' } : {};
    let text: string;
    if (tooLarge) text = `Payload Too Large: the ${retail ? 'request ' : ''}body exceeds ${e.limit} bytes`;
    else if (e.type === 'encoding.unsupported') {
      text = `Unsupported Media Type: Content-Encoding ${req.headers['content-encoding']}; send ${retail ? `${this.messages.media.ndc};charset=UTF-8` : 'application/json'} without Content-Encoding`;
    } else text = `${LABELS[e.status] ?? 'Error'}: the request body could not be read`;
    if (!retail) return sendJsonError(res, e.status, text, headers);
    this.sendNdc(req, res, retail, { status: e.status, error: ndcError('INVALID_REQUEST', text), headers });
  }

  private sendNdc(req: ExpressRequest, res: ExpressResponse, exchange: NdcExchange, failure: NdcFailure): void {
    noteNdcErrors(res, [failure.error]);
    const xml = this.messages.encodeErrors(exchange.answers, [failure.error], exchange.echo, exchange.binding);
    const payload = xmlPayload(req, this.messages.contentType(exchange.contentType, exchange.binding), xml);
    sendXml(res, failure.status, payload, failure.headers);
  }
}
