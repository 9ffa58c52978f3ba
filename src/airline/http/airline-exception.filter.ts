/**
 * Maps what escapes the controllers to HTTP answers, in one place: 401 with
 * the Basic challenge; Nest HTTP exceptions (e.g. 404 for unknown paths) as
 * `{code, description}` JSON; anything else is logged (message and stack,
 * never a request body) and answered 500.
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UnauthorizedRetailError } from './basic-auth.guard';
import { jsonError, sendReply, textReply } from './reply';

@Catch()
export class AirlineExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Airline');

  constructor(private readonly realm: string) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<IncomingMessage>();
    const res = ctx.getResponse<ServerResponse>();
    if (exception instanceof UnauthorizedRetailError) {
      return sendReply(
        req,
        res,
        textReply(401, 'Unauthorized: Basic credentials required', {
          'WWW-Authenticate': `Basic realm="${this.realm}", charset="UTF-8"`,
        }),
      );
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return sendReply(req, res, jsonError(status, `${statusLabel(status)}: ${exception.message}`));
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendReply(req, res, jsonError(500, 'Internal Server Error'));
  }
}

function statusLabel(status: number): string {
  const labels: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed' };
  return labels[status] ?? 'Error';
}
