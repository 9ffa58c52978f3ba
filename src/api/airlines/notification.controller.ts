/**
 * `POST /airlines/{code}/notifications` (docs/api.md, "Airline notifications"): where an airline
 * pushes OrderChangeNotif. Not an agency route: the airline presents the HTTP Basic credential of
 * its profile (`notifications`), checked before a byte of the body is read (the API's JSON and form
 * parsers pass this route by, see configure-app.ts). Answers:
 * - 200 `{ "outcome": "delivered" | "duplicate" | "unknown-order" }`: acknowledged (a repeat or an
 *   order of no booking here is acknowledged too, so the airline stops sending it);
 * - errors as an NDC `OrderViewRS` error form in the binding of the request: 401 (credential, with a
 *   Basic challenge), 404 (no such airline pushes here), 413 (over 1 MiB), 400 (not a valid
 *   OrderChangeNotif: the path that is wrong), 503 (Temporal unreachable: send again later).
 */
import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AIRLINE_BASIC_SCHEME } from '../common/openapi.decorators';
import type { IncomingMessage } from 'node:http';
import {
  bindingContentType,
  detectBinding,
  encodeOrderViewRs,
  NdcDecodeError,
  wrapInBinding,
  type NdcBinding,
} from '../../ndc';
import { NdcMissingElementError } from '../../ndc/require-element';
import { NdcClientError } from '../../ndc-client/ndc-client.errors';
import { Public } from '../auth/auth.decorators';
import type { HttpResponse as Response } from '../common/http.types';
import { InvalidNotificationError, NOTIFICATION_MAX_BYTES, NotificationService } from './notification.service';

/** Our own codes of a refused notification (`Error@Code`), by HTTP status. */
const ERROR_CODES: Readonly<Record<number, { code: string; shortText: string }>> = {
  400: { code: '400', shortText: 'INVALID_NOTIFICATION' },
  401: { code: '401', shortText: 'UNAUTHORIZED' },
  404: { code: '404', shortText: 'NOT_FOUND' },
  413: { code: '413', shortText: 'TOO_LARGE' },
  503: { code: '503', shortText: 'UNAVAILABLE' },
};

class BodyTooLargeError extends Error {}

@ApiTags('airlines')
@ApiBasicAuth(AIRLINE_BASIC_SCHEME)
@Public()
@Controller('airlines')
export class NotificationController {
  constructor(private readonly notifications: NotificationService) {}

  @Post(':code/notifications')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "An airline pushes an OrderChangeNotif (NDC 17.2; plain, SOAP 1.1/1.2 or NDC Exchange): handed to the booking holding the order. HTTP Basic with the airline profile's notification credential, not an API key",
  })
  @ApiParam({ name: 'code', description: 'The airline designator, as in GET /airlines' })
  @ApiConsumes('application/xml', 'text/xml', 'application/soap+xml')
  @ApiBody({ description: 'OrderChangeNotif (at most 1 MiB)', schema: { type: 'string' } })
  @ApiResponse({ status: 200, description: '`{ "outcome": "delivered" | "duplicate" | "unknown-order" }`' })
  @ApiResponse({
    status: 400,
    description: 'Not a valid OrderChangeNotif: an OrderViewRS error form naming the path (also 401, 404, 413, 503)',
  })
  async receive(@Param('code') code: string, @Req() req: IncomingMessage, @Res() res: Response): Promise<void> {
    const airline = this.notifications.pushingAirline(code);
    const guessed = bindingOfHeaders(req);
    if (airline === undefined) return refuse(res, 404, guessed, `no airline ${code} pushes notifications here`);
    if (!airline.credentials.matches(req.headers.authorization)) {
      this.notifications.count(code, 'refused');
      res.setHeader('WWW-Authenticate', `Basic realm="ndc-saga notifications ${code}", charset="UTF-8"`);
      return refuse(res, 401, guessed, 'missing or wrong credentials');
    }
    let body: Buffer;
    try {
      body = await readBody(req, NOTIFICATION_MAX_BYTES);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      this.notifications.count(code, 'refused');
      res.setHeader('Connection', 'close');
      return refuse(res, 413, guessed, `the body is over ${NOTIFICATION_MAX_BYTES} bytes`);
    }
    await this.answer(code, () => this.notifications.receive(airline.profile, body), detectBinding(body), res);
  }

  private async answer(
    code: string,
    receive: () => ReturnType<NotificationService['receive']>,
    binding: NdcBinding,
    res: Response,
  ): Promise<void> {
    try {
      const outcome = await receive();
      this.notifications.count(code, outcome);
      res.status(200).json({ outcome });
    } catch (error) {
      const invalid = invalidMessage(error);
      this.notifications.count(code, invalid !== undefined ? 'refused' : 'failed');
      if (invalid !== undefined) return refuse(res, 400, binding, invalid);
      res.setHeader('Retry-After', '30');
      refuse(res, 503, binding, 'the booking service cannot take notifications now; send again later');
    }
  }
}

/** The message of a notification that is not one we can take (400); undefined for any other failure. */
function invalidMessage(error: unknown): string | undefined {
  if (error instanceof NdcDecodeError) return error.message;
  if (error instanceof InvalidNotificationError || error instanceof NdcMissingElementError) return error.message;
  if (error instanceof NdcClientError && error.name === 'NdcInvalidResponseError') return error.message;
  return undefined;
}

/** Answers `status` with an OrderViewRS error form in `binding`. */
function refuse(res: Response, status: number, binding: NdcBinding, text: string): void {
  const { code, shortText } = ERROR_CODES[status]!;
  const xml = encodeOrderViewRs({
    kind: 'error',
    target: 'Production',
    version: '17.2',
    timeStamp: new Date().toISOString(),
    errors: [{ code, shortText, text: text.slice(0, 500) }],
  });
  res.status(status);
  res.setHeader('Content-Type', bindingContentType(binding, 'application/xml; charset=utf-8'));
  res.send(wrapInBinding(xml, binding));
}

/** The binding a request's headers announce (before its body is read). */
function bindingOfHeaders(req: IncomingMessage): NdcBinding {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/soap+xml')) return 'soap12';
  if (type.startsWith('text/xml') && req.headers.soapaction !== undefined) return 'soap11';
  return 'plain';
}

/** Reads the whole body, refusing it once it passes `limit` bytes (nothing more is buffered). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return reject(new BodyTooLargeError());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
