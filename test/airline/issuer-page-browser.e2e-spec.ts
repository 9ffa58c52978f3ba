/**
 * The airline's simulated 3-D Secure issuer page in a real browser (Debian's chromium through
 * playwright-core), with JavaScript disabled: a person approves, declines or cancels, the browser
 * lands on the agency's TermURL / FailURL (a local server) with the signed result, and the
 * CustomerInputRS carrying it orders (or is refused with 781).
 */
import { decodeCustomerInputRq, decodeOrderViewRs, encodeCustomerInputRs, encodeOrderCreateRq } from '../../src/ndc';
import { type AgencyPages, type TestBrowser, launchBrowser, startAgencyPages } from '../support/browser';
import { type RunningAirline, createToken, postXml, startAirline } from './airline-harness';
import { NdcClient, checkXml, inDays, pricedOffer } from './ndc-client';

describe('3-D Secure issuer page in a real browser (no JavaScript)', () => {
  let airline: RunningAirline;
  let c: NdcClient;
  let browser: TestBrowser;
  let agency: AgencyPages;
  let agencyUrl: string;
  let day = 200;

  beforeAll(async () => {
    airline = await startAirline();
    c = new NdcClient(airline.url);
    browser = await launchBrowser({ javaScriptEnabled: false });
    // The agency's own return pages.
    agency = await startAgencyPages();
    agencyUrl = agency.url;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agency?.close();
    await airline?.close();
  });

  /** An OrderCreate with `card` answered by a challenge whose TermURL/FailURL are the agency server's. */
  async function challenged(card: string) {
    const token = await createToken(airline.url, card);
    const { priced, passengers } = await pricedOffer(c, { date: inDays(day++), token });
    const rq = c.orderCreateModel(priced, token, passengers);
    rq.securePayment = {
      ...rq.securePayment!,
      termUrl: `${agencyUrl}/done?booking=7`,
      failUrl: `${agencyUrl}/fail?booking=7`,
    };
    const res = await postXml(airline.url, '/retail/orders', encodeOrderCreateRq(rq));
    expect(checkXml(res)).toBe('CustomerInputRQ');
    return decodeCustomerInputRq(res.text).securePayments[0];
  }

  async function customerInput(landed: string, spmRef: string) {
    const url = new URL(landed);
    expect(url.searchParams.get('MD')).toBe(spmRef);
    const res = await postXml(
      airline.url,
      '/retail/orders',
      encodeCustomerInputRs({
        target: 'Test',
        version: '17.2',
        kind: 'success',
        securePayments: [{ paRes: url.searchParams.get('PaRes')!, spmTxnReference: spmRef }],
      }),
    );
    expect(checkXml(res)).toBe('OrderViewRS');
    return decodeOrderViewRs(res.text);
  }

  /** Opens the issuer page, checks what it shows, follows `button` and returns where the browser landed. */
  async function choose(acsUrl: string, button: 'Approve' | 'Decline' | 'Cancel', lastFour: string) {
    const page = await browser.context.newPage();
    try {
      await page.goto(acsUrl);
      expect(await page.locator('#merchant').textContent()).toBe('Airline ZZ');
      expect(await page.locator('#card').textContent()).toBe(`•••• ${lastFour}`);
      const target =
        button === 'Cancel' ? page.getByRole('link', { name: 'Cancel' }) : page.getByRole('button', { name: button });
      await Promise.all([page.waitForURL(`${agencyUrl}/**`), target.click()]);
      const landed = page.url();
      const where = await page.locator('#where').textContent();
      if (button !== 'Cancel') {
        // A reload of the issuer page after the choice: the same result, the same landing.
        await page.goto(acsUrl);
        expect(page.url()).toBe(landed);
      }
      return { landed, where };
    } finally {
      await page.close();
    }
  }

  it('Approve lands on the TermURL with a result that orders once', async () => {
    const sp = await challenged('4000000000003220');
    const { landed, where } = await choose(sp.acsUrl!, 'Approve', '3220');
    expect(where).toBe('done');
    expect(landed.startsWith(`${agencyUrl}/done?booking=7&PaRes=`)).toBe(true);
    const rs = await customerInput(landed, sp.spmTxnReference!);
    expect(rs.kind === 'success' && rs.orders[0].statusCode).toBe('OK');
  });

  it('Decline, Cancel and the always-failing card land on the FailURL; the result is refused (781)', async () => {
    for (const [card, button] of [
      ['4000000000003220', 'Decline'],
      ['4000000000003220', 'Cancel'],
      ['4000000000003063', 'Approve'],
    ] as const) {
      const sp = await challenged(card);
      const { landed, where } = await choose(sp.acsUrl!, button, card.slice(-4));
      expect([where, landed.startsWith(`${agencyUrl}/fail?booking=7&PaRes=`)]).toEqual(['fail', true]);
      const rs = await customerInput(landed, sp.spmTxnReference!);
      expect(rs.kind === 'error' && rs.errors[0].code).toBe('781');
    }
  });
});
