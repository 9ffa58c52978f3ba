/**
 * The payment interface: card tokens (JSON). `POST /payment/tokens` creates a
 * token (201, Location, `{id, links}`); the self link shows non-sensitive
 * metadata; the charge link is for the airline's own systems only and answers
 * 403 to clients. Request bodies are never logged.
 */
import { Controller, Get, Header, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { FaultRunner } from '../faults/fault-runner';
import { FaultService, TOKEN_OPERATION } from '../faults/faults.service';
import { TokenRequestError } from '../tokens/card';
import { TokenService } from '../tokens/tokens.service';
import { AIRLINE_CLOCK } from '../airline.tokens';
import type { AirlineClock } from '../airline.ports';
import type { ExpressRequest, ExpressResponse } from './express.types';
import { parseJsonBody } from './json-body.decorator';
import { JsonHttpError } from './ndc-http.error';

const TOKEN_ID = /^tok_[a-z2-7]{26}$/;

/** Base URL of this request (`http://host`) for the token links; empty (relative links) without a Host header. */
function origin(req: ExpressRequest): string {
  if (!req.headers.host) return '';
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  return `${tls ? 'https' : 'http'}://${req.headers.host}`;
}

/** `agencyID` of a token request body, if it names one (for agency-scoped simulator faults). */
function agencyOf(body: unknown): string | undefined {
  const id = (body as { agencyID?: unknown } | null)?.agencyID;
  return typeof id === 'string' ? id : undefined;
}

export interface TokenCreated {
  id: string;
  links: { rel: 'self' | 'charge'; href: string }[];
}

@Controller('payment/tokens')
export class PaymentController {
  constructor(
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(FaultService) private readonly faults: FaultService,
    @Inject(FaultRunner) private readonly runner: FaultRunner,
    @Inject(AIRLINE_CLOCK) private readonly clock: AirlineClock,
  ) {}

  @Post()
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  create(@Req() req: ExpressRequest, @Res({ passthrough: true }) res: ExpressResponse): Promise<TokenCreated> {
    const body = parseJsonBody(req);
    const fault = this.faults.take(TOKEN_OPERATION, agencyOf(body));
    return this.runner.run(fault, req, res, async () => {
      let id: string;
      try {
        id = this.tokens.create(body).id;
      } catch (err) {
        if (err instanceof TokenRequestError) throw new JsonHttpError(400, `Bad Request: ${err.reason}`);
        throw err;
      }
      const self = `${origin(req)}/payment/tokens/${id}`;
      res.setHeader('Location', self);
      return {
        id,
        links: [
          { rel: 'self', href: self },
          { rel: 'charge', href: `${self}/charges` },
        ],
      };
    });
  }

  @Get(':id')
  @Header('Cache-Control', 'no-store')
  get(@Param('id') id: string): {
    id: string;
    brand: string;
    maskedNumber: string;
    expiresAt: string;
    funding: string;
  } {
    const token = TOKEN_ID.test(id) ? this.tokens.get(id) : undefined;
    if (!token) throw new JsonHttpError(404, 'Not Found: no such token');
    if (Date.parse(token.expiresAt) <= this.clock.now().getTime())
      throw new JsonHttpError(410, 'Gone: the token has expired');
    return {
      id: token.id,
      brand: token.brand,
      maskedNumber: token.maskedNumber,
      expiresAt: token.expiresAt,
      funding: token.funding,
    };
  }

  /** The charge link: only the airline's payment back office may charge a token. */
  @Post(':id/charges')
  charge(): never {
    throw new JsonHttpError(
      403,
      'Forbidden: clients must not charge tokens; the airline charges the card when the order is created',
    );
  }
}
