/**
 * Maps what escapes the pipeline to HTTP answers, in one place:
 * - 401 with the Basic challenge; 406 as plain text;
 * - {@link NdcHttpError} and body reading failures of a retail route (413,
 *   415) as an NDC error message of the route's response root;
 * - simulated faults (500 text, or the connection destroyed);
 * - {@link JsonHttpError}, body reading failures of the JSON endpoints and
 *   Nest's HTTP exceptions (e.g. 404 for unknown paths) as `{code, description}` JSON;
 * - anything else is logged (message and stack, never a request body) and
 *   answered 500 (an NDC 799 error on a retail route).
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { AirlineConfig } from '../airline.config';
import { ndcError } from '../airline.errors';
import { UnauthorizedRetailError } from './basic-auth.guard';
import type { ExpressRequest, ExpressResponse } from './express.types';
import type { RsRoot } from './ndc-codec';
import { findExchange } from './ndc-exchange';
import { JsonHttpError, NdcHttpError, NotAcceptableError, SimulatedFault } from './ndc-http.error';
import { noteNdcErrors } from '../observability/ndc-errors.note';
import type { NdcMessages } from './ndc-messages';
import { sendJsonError, sendText, sendXml, xmlPayload } from './ndc-reply';

/** Response root of each retail path, for failures found before routing (body reading). */
export const RETAIL_RESPONSE_ROOTS: Record<string, RsRoot> = {
  '/retail/offers': 'AirShoppingRS',
  '/retail/offerprices': 'OfferPriceRS',
  '/retail/orders': 'OrderViewRS',
  '/retail/services': 'ServiceListRS',
  '/retail/availability/seat': 'SeatAvailabilityRS',
};

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

@Catch()
export class AirlineExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Airline');
  private readonly realm: string;

  constructor(
    private readonly config: AirlineConfig,
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
    if (exception instanceof NdcHttpError) {
      return this.sendNdc(req, res, exception.status, exception.root, exception);
    }
    if (isBodyReadError(exception)) return this.bodyReadFailure(req, res, exception);
    if (exception instanceof JsonHttpError) return sendJsonError(res, exception.status, exception.description);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return sendJsonError(res, status, `${LABELS[status] ?? 'Error'}: ${exception.message}`);
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (res.headersSent) return void res.destroy();
    const exchange = findExchange(res);
    const root = exchange?.responseRoot ?? RETAIL_RESPONSE_ROOTS[req.path.toLowerCase()];
    if (root) {
      const echo = exchange?.echo ?? this.messages.headerEcho(req);
      const failure = new NdcHttpError(
        500,
        root,
        [ndcError('SYSTEM_ERROR', 'Unable to process the request')],
        echo,
        {},
        exchange?.binding,
      );
      return this.sendNdc(req, res, 500, root, failure);
    }
    sendJsonError(res, 500, 'Internal Server Error');
  }

  private bodyReadFailure(req: ExpressRequest, res: ExpressResponse, e: BodyReadError): void {
    const root = RETAIL_RESPONSE_ROOTS[req.path.toLowerCase()];
    const tooLarge = e.type === 'entity.too.large';
    const headers: Record<string, string> = tooLarge ? { Connection: 'close' } : {};
    let text: string;
    if (tooLarge) text = `Payload Too Large: the ${root ? 'request ' : ''}body exceeds ${e.limit} bytes`;
    else if (e.type === 'encoding.unsupported') {
      text = `Unsupported Media Type: Content-Encoding ${req.headers['content-encoding']}; send ${root ? `${this.messages.media.ndc};charset=UTF-8` : 'application/json'} without Content-Encoding`;
    } else text = `${LABELS[e.status] ?? 'Error'}: the request body could not be read`;
    if (!root) return sendJsonError(res, e.status, text, headers);
    const echo = this.messages.headerEcho(req);
    this.sendNdc(
      req,
      res,
      e.status,
      root,
      new NdcHttpError(e.status, root, [ndcError('INVALID_REQUEST', text)], echo, headers),
    );
  }

  private sendNdc(req: ExpressRequest, res: ExpressResponse, status: number, root: RsRoot, e: NdcHttpError): void {
    const mediaType = this.messages.media.negotiate(req) ?? this.messages.media.ndc;
    noteNdcErrors(res, e.errors);
    const xml = this.messages.encodeErrors(root, e.errors, e.echo, e.binding);
    sendXml(res, status, xmlPayload(req, this.messages.contentType(mediaType, e.binding), xml), e.headers);
  }
}
