/**
 * The simulated card issuer's 3-D Secure page (the `ACS_URL` of a CustomerInputRQ), for the
 * cardholder's browser: no credentials (the unguessable reference in the path is the key), plain
 * HTML that works without JavaScript. `GET /acs/{ref}` shows merchant, amount and the card's last
 * four digits with Approve and Decline buttons (a form posting back here) and a Cancel link to
 * the FailURL; `POST /acs/{ref}` (`decision=approve|decline`) answers 303 to the TermURL or the
 * FailURL with the signed result (`PaRes`, `MD`). The first decision is final.
 */
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import type { AirlineConfig } from '../airline.config';
import { AIRLINE_CONFIG } from '../airline.tokens';
import { AuthenticationService, type IssuerPageView } from '../authentication/authentication.service';
import type { ExpressResponse } from './express.types';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}' +
    'dt{color:#555}dd{margin:0 0 .6rem;font-weight:bold}button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.6rem}</style>' +
    `</head><body>${body}</body></html>`
  );
}

@Controller('acs')
export class AcsController {
  constructor(
    @Inject(AuthenticationService) private readonly authentication: AuthenticationService,
    @Inject(AIRLINE_CONFIG) private readonly config: AirlineConfig,
  ) {}

  @Get(':ref')
  show(@Param('ref') ref: string, @Res() res: ExpressResponse): void {
    const view = this.authentication.page(ref);
    if (!view)
      return this.send(
        res,
        404,
        page('Not found', '<h1>Unknown payment</h1><p>There is no payment to authenticate here.</p>'),
      );
    if (view.redirect) return res.redirect(303, view.redirect);
    if (view.closed) {
      const body = `<h1>Payment closed</h1><p>${escapeHtml(view.closed)}</p><p><a href="${escapeHtml(view.cancelUrl)}">Back to the shop</a></p>`;
      return this.send(res, 410, page('Payment closed', body));
    }
    this.send(res, 200, page('Confirm your payment', this.form(view)));
  }

  @Post(':ref')
  @HttpCode(303)
  decide(@Param('ref') ref: string, @Body() body: unknown, @Res() res: ExpressResponse): void {
    const decision = (body as Record<string, unknown> | undefined)?.decision;
    if (decision !== 'approve' && decision !== 'decline') {
      return this.send(res, 400, page('Bad request', '<h1>Choose Approve or Decline</h1>'));
    }
    const target = this.authentication.decide(ref, decision === 'approve');
    if (target === undefined) return this.show(ref, res);
    res.redirect(303, target);
  }

  private form(v: IssuerPageView): string {
    const merchant = `Airline ${this.config.airlineCode}`;
    return (
      '<h1>Confirm your payment</h1><p>Your card issuer asks you to confirm this payment (3-D Secure test page).</p>' +
      `<dl><dt>Merchant</dt><dd id="merchant">${escapeHtml(merchant)}</dd>` +
      `<dt>Amount</dt><dd id="amount">${escapeHtml(`${v.amount.value} ${v.amount.currency}`)}</dd>` +
      `<dt>Card</dt><dd id="card">•••• ${escapeHtml(v.lastFour)}</dd></dl>` +
      `<form method="post" action="/acs/${encodeURIComponent(v.spmRef)}">` +
      '<button type="submit" name="decision" value="approve" id="approve">Approve</button>' +
      '<button type="submit" name="decision" value="decline" id="decline">Decline</button></form>' +
      `<p><a href="${escapeHtml(v.cancelUrl)}" id="cancel">Cancel</a></p>`
    );
  }

  private send(res: ExpressResponse, status: number, html: string): void {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.status(status).type('text/html; charset=utf-8').send(html);
  }
}
