/**
 * The payment interface: card tokens (JSON). `POST /payment/tokens` creates a
 * token (201, Location, `{id, links}`); the self link shows non-sensitive
 * metadata; the charge link is for the airline's own systems only and answers
 * 403 to clients. Request bodies are never logged.
 */
import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultRunner } from '../faults/fault-runner';
import { TokenRequestError } from '../tokens/card';
import { TokenService } from '../tokens/tokens.service';
import { AIRLINE_CLOCK } from '../airline.tokens';
import type { AirlineClock } from '../airline.ports';
import { JsonBodyError, readJsonBody } from './json-body';
import { type HttpReply, jsonError, jsonReply, sendReply } from './reply';

/** Largest token request body (16 KiB). */
export const TOKEN_BODY_LIMIT = 16 * 1024;

const TOKEN_ID = /^tok_[a-z2-7]{26}$/;

/** Base URL of this request (`http://host`) for the token links; empty (relative links) without a Host header. */
function origin(req: IncomingMessage): string {
  if (!req.headers.host) return '';
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  return `${tls ? 'https' : 'http'}://${req.headers.host}`;
}

@Controller('payment/tokens')
export class PaymentController {
  constructor(
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(FaultRunner) private readonly faults: FaultRunner,
    @Inject(AIRLINE_CLOCK) private readonly clock: AirlineClock,
  ) {}

  @Post()
  async create(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    const reply = await this.faults.run('Token', req, res, () => this.createReply(req));
    if (reply) sendReply(req, res, reply);
  }

  private async createReply(req: IncomingMessage): Promise<HttpReply> {
    try {
      const body = await readJsonBody(req, TOKEN_BODY_LIMIT);
      const token = this.tokens.create(body);
      const self = `${origin(req)}/payment/tokens/${token.id}`;
      return jsonReply(
        201,
        {
          id: token.id,
          links: [
            { rel: 'self', href: self },
            { rel: 'charge', href: `${self}/charges` },
          ],
        },
        { Location: self, 'Cache-Control': 'no-store' },
      );
    } catch (err) {
      if (err instanceof JsonBodyError) return jsonError(err.status, err.message);
      if (err instanceof TokenRequestError) return jsonError(400, `Bad Request: ${err.reason}`);
      throw err;
    }
  }

  @Get(':id')
  get(@Param('id') id: string, @Req() req: IncomingMessage, @Res() res: ServerResponse): void {
    const token = TOKEN_ID.test(id) ? this.tokens.get(id) : undefined;
    if (!token) return sendReply(req, res, jsonError(404, 'Not Found: no such token'));
    if (Date.parse(token.expiresAt) <= this.clock.now().getTime()) {
      return sendReply(req, res, jsonError(410, 'Gone: the token has expired'));
    }
    sendReply(
      req,
      res,
      jsonReply(
        200,
        { id: token.id, brand: token.brand, maskedNumber: token.maskedNumber, expiresAt: token.expiresAt, funding: token.funding },
        { 'Cache-Control': 'no-store' },
      ),
    );
  }

  /** The charge link: only the airline's payment back office may charge a token. */
  @Post(':id/charges')
  charge(@Req() req: IncomingMessage, @Res() res: ServerResponse): void {
    sendReply(
      req,
      res,
      jsonError(403, 'Forbidden: clients must not charge tokens; the airline charges the card when the order is created'),
    );
  }
}
