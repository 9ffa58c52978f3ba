/**
 * 3-D Secure through the booking API, as a person would do it: a booking with a card whose
 * issuer asks, its `authentication.redirectUrl` opened in a real browser (Debian's chromium via
 * playwright-core), Approve / Decline clicked on the airline's issuer page, the browser sent back
 * through the API's return endpoint to the agency's own term URL (a local server). Real API,
 * worker, Temporal and airline; the airline's hold (AIRLINE_AUTHENTICATION_HOLD_MS) and the
 * booking's window (the profile's authenticationTimeoutMs, AIRLINE_AUTHENTICATION_TIMEOUT_MS) are
 * shortened, so an abandoned page is seen to give the seats back. Batch children get the same
 * return URLs as single bookings.
 */
import { captureProcessOutput } from '../support/capture-output';
import { launchBrowser, startAgencyPages, type AgencyPages, type TestBrowser } from '../support/browser';
import { workflowHistoryJson } from '../support/temporal-env';
import { NdcClient, ONE_ADULT } from '../airline/ndc-client';
import type { BookingIntent } from '../../src/booking/booking.model';
import { oneWayIntent } from './intent.fixture';
import { call, pollUntil, startStack, waitForBooking, type Stack } from './stack';

jest.setTimeout(240_000);

const CHALLENGE_CARD = '4000000000003220';
const FAILING_CARD = '4000000000003063';
/**
 * The airline's hold of the seats and the booking's wait for the cardholder in this stack (per
 * airline, from the API's airline profile): the same, as the profile documents (at most the hold).
 */
const WINDOW_MS = 45_000;
const captured = captureProcessOutput('INFO');

describe('3-D Secure through the booking API in a real browser', () => {
  let stack: Stack;
  let browser: TestBrowser;
  let agency: AgencyPages;
  let agencyUrl: string;
  const bookingIds: string[] = [];
  /** URLs of the API's return endpoint the browser went through (with token and PaRes). */
  const returnUrls: string[] = [];
  const api = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await call(stack, method, path, body, headers);
    captured.push(r.text);
    return r;
  };

  beforeAll(async () => {
    stack = await startStack({
      prefix: 'api-3ds',
      airline: { authenticationHoldMs: WINDOW_MS },
      apiEnv: { AIRLINE_AUTHENTICATION_TIMEOUT_MS: String(WINDOW_MS) },
    });
    browser = await launchBrowser();
    agency = await startAgencyPages();
    agencyUrl = agency.url;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await agency?.close();
    await stack?.close();
  });

  /** An intent paid with `card` whose own return pages are the agency server's (`now` moves the date). */
  function intentOf(card: string, key: string, now?: Date): BookingIntent {
    const intent = oneWayIntent({ card, ...(now !== undefined ? { now } : {}) });
    intent.securePayment = {
      ...intent.securePayment,
      termUrl: `${agencyUrl}/done?b=${key}`,
      failUrl: `${agencyUrl}/fail?b=${key}`,
    };
    return intent;
  }

  /** Waits until booking `id` waits for the cardholder. */
  async function awaitingAuthentication(id: string) {
    bookingIds.push(id);
    const waiting = await waitForBooking(stack, id, 'AWAITING_AUTHENTICATION');
    expect(waiting.authentication).toEqual({ redirectUrl: expect.any(String), expiresAt: expect.any(String) });
    return { id, waiting };
  }

  /** Books with `card` until the booking waits for the cardholder. */
  async function book(card: string, key: string, now?: Date) {
    const posted = await api('POST', '/bookings', intentOf(card, key, now), { 'Idempotency-Key': key });
    expect(posted.status).toBe(202);
    return awaitingAuthentication(posted.body.id);
  }

  /** The start of the API's return URL of booking `id` (API_PUBLIC_URL unset: its own port on localhost). */
  const returnUrlOf = (id: string) =>
    `http://localhost:${new URL(stack.apiUrl).port}/bookings/${encodeURIComponent(id)}/authentication/return?token=`;

  /** Seats left per price class, segment and booking class on LGW-OSL on `date`, as AirShopping shows them. */
  async function seatsLeft(date: string): Promise<string[]> {
    const rs = await new NdcClient(stack.airlineUrl).day([{ from: 'LGW', to: 'OSL', date }], ONE_ADULT);
    return (rs.dataLists.priceClasses ?? [])
      .flatMap((pc) =>
        (pc.classesOfService ?? []).map((c) => `${pc.code}/${c.segmentRefs?.join('+')}/${c.code}: ${c.seatsLeft}`),
      )
      .sort();
  }

  /** Opens the issuer page, clicks `button`, returns where the browser landed and the return URL it went through. */
  async function authenticate(redirectUrl: string, button: 'Approve' | 'Decline') {
    const page = await browser.context.newPage();
    const seen: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/authentication/return')) seen.push(request.url());
    });
    try {
      await page.goto(redirectUrl);
      await Promise.all([page.waitForURL(`${agencyUrl}/**`), page.getByRole('button', { name: button }).click()]);
      returnUrls.push(...seen);
      return { landed: page.url(), where: await page.locator('#where').textContent(), returnUrl: seen[0]! };
    } finally {
      await page.close();
    }
  }

  const ordersOf = (view: { chosenOffer: { shoppingResponseId: string } }) =>
    stack.ordersFor(view.chosenOffer.shoppingResponseId);

  /**
   * Approves booking `id` (booked with key `key`) on the issuer page: the browser goes through
   * the API's own return URL of this booking (API_PUBLIC_URL unset: its port on localhost) to the
   * agency's term URL, and the booking is CONFIRMED with one order.
   */
  async function approveThroughApi(id: string, waiting: { authentication: { redirectUrl: string } }, key: string) {
    const { landed, where, returnUrl } = await authenticate(waiting.authentication.redirectUrl, 'Approve');
    expect([where, landed]).toEqual(['done', `${agencyUrl}/done?b=${key}`]);
    expect(returnUrl.startsWith(returnUrlOf(id))).toBe(true);
    const confirmed = await waitForBooking(stack, id, 'CONFIRMED');
    expect(ordersOf(confirmed)).toHaveLength(1);
    expect(confirmed.authentication).toMatchObject({ returned: 'approved' });
    return { returnUrl, confirmed };
  }

  it('Approve: back through the return endpoint to the term URL, CONFIRMED with one order; a reload changes nothing', async () => {
    const { id, waiting } = await book(CHALLENGE_CARD, '3ds-approve');
    expect(new Date(waiting.authentication.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(ordersOf(waiting)).toEqual([]);
    const { returnUrl, confirmed } = await approveThroughApi(id, waiting, '3ds-approve');
    expect(confirmed.steps.map((s: { name: string; outcome: string }) => `${s.name}:${s.outcome}`)).toEqual(
      expect.arrayContaining(['createOrder:ok', 'customerInput:ok', 'retrieveOrder:ok']),
    );

    // The back button / a reload of the return URL: the same landing, nothing changes.
    const page = await browser.context.newPage();
    try {
      await page.goto(returnUrl);
      expect(page.url()).toBe(`${agencyUrl}/done?b=3ds-approve`);
    } finally {
      await page.close();
    }
    const after = await api('GET', `/bookings/${encodeURIComponent(id)}`);
    expect([after.body.status, after.body.steps.length]).toEqual(['CONFIRMED', confirmed.steps.length]);
    expect(ordersOf(confirmed)).toHaveLength(1);

    // Only the booking's own token is accepted; no credential is needed, but a wrong token is a 404.
    const forged = new URL(returnUrl);
    forged.searchParams.set('token', 'A'.repeat(43));
    const refused = await fetch(forged, { redirect: 'manual' });
    expect(refused.status).toBe(404);
  });

  it('Decline: FAILED AUTHENTICATION_FAILED, the fail URL, no order', async () => {
    const { id, waiting } = await book(CHALLENGE_CARD, '3ds-decline');
    const { where } = await authenticate(waiting.authentication.redirectUrl, 'Decline');
    expect(where).toBe('fail');
    const failed = await waitForBooking(stack, id, 'FAILED');
    expect([failed.error.type, failed.error.airlineCode]).toEqual(['AUTHENTICATION_FAILED', '781']);
    expect(ordersOf(failed)).toEqual([]);
  });

  it('the card whose authentication always fails (4000000000003063): FAILED AUTHENTICATION_FAILED, no order', async () => {
    const { id, waiting } = await book(FAILING_CARD, '3ds-3063');
    const { where } = await authenticate(waiting.authentication.redirectUrl, 'Approve');
    expect(where).toBe('fail');
    const failed = await waitForBooking(stack, id, 'FAILED');
    expect(failed.error.type).toBe('AUTHENTICATION_FAILED');
    expect(ordersOf(failed)).toEqual([]);
  });

  it('an agency posts the result itself (API key): the first counts; without a key 401', async () => {
    const { id } = await book(CHALLENGE_CARD, '3ds-post');
    const path = `/bookings/${encodeURIComponent(id)}/authentication`;
    expect((await api('POST', path, { result: 'declined' }, { authorization: '' })).status).toBe(401);
    expect((await api('POST', path, { result: 'maybe' })).status).toBe(400);
    const posted = await api('POST', path, { result: 'declined' });
    expect([posted.status, posted.body]).toEqual([200, { id, outcome: 'declined', first: true }]);
    const failed = await waitForBooking(stack, id, 'FAILED');
    expect(failed.error.type).toBe('AUTHENTICATION_FAILED');
    expect(ordersOf(failed)).toEqual([]);
  });

  it('abandoned at the issuer page: FAILED AUTHENTICATION_TIMEOUT after the window, no order, the seats back on sale', async () => {
    // A day no other test books, so the seats seen are this booking's alone.
    const tomorrow = new Date(Date.now() + 86_400_000);
    const date = intentOf(CHALLENGE_CARD, '3ds-abandon', tomorrow).journey.departureDate;
    const before = await seatsLeft(date);
    const { id, waiting } = await book(CHALLENGE_CARD, '3ds-abandon', tomorrow);
    // The airline holds the seat while the cardholder is asked.
    expect(await seatsLeft(date)).not.toEqual(before);
    const page = await browser.context.newPage();
    await page.goto(waiting.authentication.redirectUrl);
    await page.close();
    const failed = await waitForBooking(stack, id, 'FAILED', WINDOW_MS + 90_000);
    expect(failed.error.type).toBe('AUTHENTICATION_TIMEOUT');
    expect(failed.error.message).toContain(`${WINDOW_MS} ms`);
    expect(ordersOf(failed)).toEqual([]);
    // The hold has ended with the window: shopping shows the seats for sale again.
    const after = await pollUntil('the held seats to be back on sale', async () => {
      const now = await seatsLeft(date);
      return JSON.stringify(now) === JSON.stringify(before) ? now : undefined;
    });
    expect(after).toEqual(before);
  });

  it('a batch child whose card asks gets the same return URLs as a single booking: back through the API, CONFIRMED', async () => {
    const posted = await api('POST', '/batches', [intentOf(CHALLENGE_CARD, '3ds-batch')], {
      'Idempotency-Key': '3ds-batch',
    });
    expect(posted.status).toBe(202);
    bookingIds.push(posted.body.id);
    const { id, waiting } = await awaitingAuthentication(`${posted.body.id}-0`);
    await approveThroughApi(id, waiting, '3ds-batch');
    const batch = await pollUntil(`batch ${posted.body.id} done`, async () => {
      const r = await api('GET', `/batches/${encodeURIComponent(posted.body.id)}`);
      return r.body?.done === true ? r.body : undefined;
    });
    expect([batch.confirmed, batch.failed]).toEqual([1, 0]);
  });

  it('leak check: histories, logs and API answers hold no card number, return token or PaRes', async () => {
    expect(returnUrls.length).toBeGreaterThan(0);
    const secrets = new Set<string>([CHALLENGE_CARD, FAILING_CARD]);
    for (const url of returnUrls) {
      const u = new URL(url);
      secrets.add(u.searchParams.get('token')!);
      const paRes = u.searchParams.get('PaRes');
      if (paRes !== null) secrets.add(paRes);
    }
    const haystacks: [string, string][] = [['captured logs and API answers', captured.join('\n')]];
    for (const id of bookingIds) haystacks.push([`history of ${id}`, await workflowHistoryJson(id)]);
    for (const [what, text] of haystacks) {
      for (const secret of secrets)
        expect([what, secret.slice(0, 12), text.includes(secret)]).toEqual([what, secret.slice(0, 12), false]);
    }
  });
});
