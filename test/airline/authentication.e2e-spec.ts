/**
 * 3-D Secure at the embedded airline: OrderCreate answered with CustomerInputRQ (seats held, no
 * order), the issuer page, the signed result, CustomerInputRS ordering from the hold, and every
 * refusal (declined, always-failing card, forged, moved, expired, reused), the pre-authenticated
 * payment, and the fault simulator on the new step. Every XML answer is checked against the XSD.
 */
import type { AirlineClock } from '../../src/airline/airline.ports';
import { AirlineStore } from '../../src/airline/store/airline.store';
import {
  type CustomerInputRq,
  type OrderCreateRq,
  decodeCustomerInputRq,
  decodeOrderViewRs,
  encodeCustomerInputRs,
  encodeOrderCreateRq,
} from '../../src/ndc';
import { NdcHttpClient, isAuthenticationChallenge } from '../../src/ndc-client';
import {
  type RunningAirline,
  armFault,
  ndcClientConfig,
  clearFaults,
  createToken,
  http,
  postOrderWithin,
  postXml,
  startAirline,
} from './airline-harness';
import { AGENCY, NdcClient, checkXml, inDays, pricedOffer } from './ndc-client';

class MovableClock implements AirlineClock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const HOLD_MS = 600_000;

describe('airline 3-D Secure (CustomerInputRQ/RS)', () => {
  let airline: RunningAirline;
  let c: NdcClient;
  let store: AirlineStore;
  const clock = new MovableClock();
  let day = 100;

  beforeAll(async () => {
    airline = await startAirline({}, { clock });
    c = new NdcClient(airline.url);
    store = airline.app.get(AirlineStore);
  });

  afterEach(async () => {
    clock.offsetMs = 0;
    await clearFaults(airline.url);
  });

  afterAll(() => airline.close());

  /** A priced offer on a fresh day and the OrderCreateRQ paying it with a new token of `card`. */
  async function orderFor(card: string): Promise<{ rq: OrderCreateRq; shoppingResponseId: string }> {
    const token = await createToken(airline.url, card);
    const { shoppingResponseId, priced, passengers } = await pricedOffer(c, { date: inDays(day++), token });
    return { rq: c.orderCreateModel(priced, token, passengers), shoppingResponseId };
  }

  function seatsSold(rq: OrderCreateRq): number {
    const segments = store.responses.getPricing(rq.offers[0].responseId)!.segments;
    return segments.reduce((n, s) => n + store.inventory.sold(s.inventoryKey, s.rbd), 0);
  }

  async function challenge(rq: OrderCreateRq): Promise<CustomerInputRq> {
    const res = await postXml(airline.url, '/retail/orders', encodeOrderCreateRq(rq));
    expect(res.status).toBe(200);
    expect(checkXml(res)).toBe('CustomerInputRQ');
    return decodeCustomerInputRq(res.text);
  }

  /** Submits the issuer page's form; the 303's Location. */
  async function decide(acsUrl: string, decision: 'approve' | 'decline'): Promise<URL> {
    const res = await http(acsUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `decision=${decision}`,
    });
    expect(res.status).toBe(303);
    return new URL(String(res.headers.location));
  }

  async function customerInput(paRes: string, spmRef: string, otid = 'TX-0001') {
    const xml = encodeCustomerInputRs({
      target: 'Test',
      version: '17.2',
      transactionIdentifier: 'TX-0002',
      kind: 'success',
      securePayments: [{ paRes, spmTxnReference: spmRef, originalTransactionId: otid, status: 'Y' }],
    });
    const res = await postXml(airline.url, '/retail/orders', xml);
    expect(res.status).toBe(200);
    expect(checkXml(res)).toBe('OrderViewRS');
    return decodeOrderViewRs(res.text);
  }

  const codeOf = (rs: Awaited<ReturnType<typeof customerInput>>) =>
    rs.kind === 'error' ? [rs.errors[0].code, rs.errors[0].text] : ['success', ''];

  it('approve: challenge with seats held and no order, issuer page, signed result, one order from the hold', async () => {
    const { rq, shoppingResponseId } = await orderFor('4000000000003220');
    const before = seatsSold(rq);
    const ci = await challenge(rq);
    const sp = ci.securePayments[0];
    expect(ci.transactionIdentifier).toBe('TX-0001');
    expect(ci.party).toEqual({ name: 'Saga Travel', agencyId: AGENCY });
    expect(sp).toMatchObject({
      transactionType: 'Authorize',
      originalTransactionId: 'TX-0001',
      failUrl: 'https://agency.example/fail',
      termUrl: 'https://agency.example/done',
      amount: rq.offers[0].totalOfferPrice,
    });
    expect(sp.spmTxnReference).toMatch(/^SPM-[0-9A-F]{32}$/);
    expect(sp.acsUrl).toBe(`${airline.url}/acs/${sp.spmTxnReference}`);
    expect(seatsSold(rq)).toBe(before + 1);
    expect((await c.getOrders(shoppingResponseId, AGENCY)).text).toContain('Code="913"');
    // A retry of the same OrderCreate gets the same challenge, and holds nothing more.
    expect((await challenge(rq)).securePayments[0].spmTxnReference).toBe(sp.spmTxnReference);
    expect(seatsSold(rq)).toBe(before + 1);

    const page = await http(sp.acsUrl!);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<dd id="merchant">Airline ZZ</dd>');
    expect(page.text).toContain(`<dd id="amount">${sp.amount!.value} ${sp.amount!.currency}</dd>`);
    expect(page.text).toContain('<dd id="card">•••• 3220</dd>');
    expect(page.text).not.toContain('4000000000003220');
    expect(page.text).toMatch(/<a href="https:\/\/agency\.example\/fail\?PaRes=[^"]+" id="cancel">Cancel<\/a>/);

    const term = await decide(sp.acsUrl!, 'approve');
    expect(term.origin + term.pathname).toBe('https://agency.example/done');
    expect(term.searchParams.get('MD')).toBe(sp.spmTxnReference);
    const paRes = term.searchParams.get('PaRes')!;
    // The decision is final: a reload of the page and a second choice give the same result.
    const reload = await http(sp.acsUrl!);
    expect([reload.status, reload.headers.location]).toEqual([303, term.toString()]);
    expect((await decide(sp.acsUrl!, 'decline')).toString()).toBe(term.toString());

    const rs = await customerInput(paRes, sp.spmTxnReference!);
    if (rs.kind !== 'success') throw new Error(JSON.stringify(rs));
    expect(rs.orders[0].totalOrderPrice).toEqual(rq.offers[0].totalOfferPrice);
    expect(seatsSold(rq)).toBe(before + 1);
    expect((await c.retrieve(rs.orders[0].orderId)).kind).toBe('success');
    // Exactly once: the same result sent again (its first answer lost) answers the order it made,
    // nothing more is booked; the page's declined result for this hold is refused (784).
    const again = await customerInput(paRes, sp.spmTxnReference!);
    expect(again.kind === 'success' && again.orders[0].orderId).toBe(rs.orders[0].orderId);
    const cancelHref = /<a href="([^"]+)" id="cancel">/.exec(page.text)![1].replace(/&amp;/g, '&');
    expect(codeOf(await customerInput(new URL(cancelHref).searchParams.get('PaRes')!, sp.spmTxnReference!))).toEqual([
      '784',
      `The authentication result of ${sp.spmTxnReference} was already used: order ${rs.orders[0].orderId} was created from it`,
    ]);
    expect(await c.orderXml(encodeOrderCreateRq(rq))).toEqual(expect.objectContaining({ kind: 'success' }));
    expect(seatsSold(rq)).toBe(before + 1);
    // The closed page says so.
    expect((await http(sp.acsUrl!)).status).toBe(410);
  });

  it('decline, cancel and the always-failing card: FailURL, 781, seats released, no order', async () => {
    for (const [card, decision] of [
      ['4000000000003220', 'decline'],
      ['4000000000003063', 'approve'],
      ['4000000000003220', 'cancel'],
    ] as const) {
      const { rq, shoppingResponseId } = await orderFor(card);
      const before = seatsSold(rq);
      const sp = (await challenge(rq)).securePayments[0];
      let fail: URL;
      if (decision === 'cancel') {
        const href = /<a href="([^"]+)" id="cancel">/.exec((await http(sp.acsUrl!)).text)![1].replace(/&amp;/g, '&');
        fail = new URL(href);
      } else {
        fail = await decide(sp.acsUrl!, decision);
      }
      expect(fail.origin + fail.pathname).toBe('https://agency.example/fail');
      const rs = await customerInput(fail.searchParams.get('PaRes')!, sp.spmTxnReference!);
      expect(codeOf(rs)[0]).toBe('781');
      expect(seatsSold(rq)).toBe(before);
      // Sent again (a lost answer): the same refusal, nothing ordered.
      expect(codeOf(await customerInput(fail.searchParams.get('PaRes')!, sp.spmTxnReference!))[0]).toBe('781');
      expect(seatsSold(rq)).toBe(before);
      expect((await c.getOrders(shoppingResponseId, AGENCY)).text).toContain('Code="913"');
    }
  });

  it('a forged, altered or moved result is refused (782) and books nothing; the hold stays open', async () => {
    const a = await orderFor('4000000000003220');
    const b = await orderFor('4000000000003220');
    const spA = (await challenge(a.rq)).securePayments[0];
    const spB = (await challenge(b.rq)).securePayments[0];
    const paResA = (await decide(spA.acsUrl!, 'approve')).searchParams.get('PaRes')!;
    const forged = paResA.replace(/\.[^.]+$/, '.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    const upgraded = paResA.replace('.Y.', '.N.');
    expect(codeOf(await customerInput(forged, spA.spmTxnReference!))[0]).toBe('782');
    expect(codeOf(await customerInput(upgraded, spA.spmTxnReference!))[0]).toBe('782');
    expect(codeOf(await customerInput(paResA, spB.spmTxnReference!))).toEqual([
      '782',
      'The authentication result belongs to another transaction; nothing was charged',
    ]);
    expect(codeOf(await customerInput(paResA, spA.spmTxnReference!, 'TX-OTHER'))[0]).toBe('782');
    expect((await c.getOrders(b.shoppingResponseId, AGENCY)).text).toContain('Code="913"');
    // A's own result still works.
    expect((await customerInput(paResA, spA.spmTxnReference!)).kind).toBe('success');
  });

  it('after the hold window: the seats are released (before any client speaks) and the result is refused (783)', async () => {
    const { rq } = await orderFor('4000000000003220');
    const before = seatsSold(rq);
    const sp = (await challenge(rq)).securePayments[0];
    const paRes = (await decide(sp.acsUrl!, 'approve')).searchParams.get('PaRes')!;
    clock.offsetMs = HOLD_MS + 1000;
    // Shopping sweeps expired holds.
    await c.day([{ from: 'LGW', to: 'OSL', date: inDays(day) }]);
    expect(seatsSold(rq)).toBe(before);
    expect(codeOf(await customerInput(paRes, sp.spmTxnReference!))[0]).toBe('783');
    expect((await http(sp.acsUrl!)).status).toBe(410);
  });

  it('a pre-authenticated payment is charged without challenge; a result that is not a success is refused (781)', async () => {
    const auth = { transactionId: '8a880dc0-d2d2-4067', cavv: 'AAABBJg0VhI0VniQEjRWAAAAAAA=', eci: '05', status: 'Y' };
    const ok = await orderFor('4000000000003220');
    const rs = await c.orderXml(
      encodeOrderCreateRq({ ...ok.rq, securePayment: { ...ok.rq.securePayment!, authentication: auth } }),
    );
    expect(rs.kind).toBe('success');
    const bad = await orderFor('4000000000003220');
    const refused = await c.orderXml(
      encodeOrderCreateRq({
        ...bad.rq,
        securePayment: { ...bad.rq.securePayment!, authentication: { ...auth, eci: '07' } },
      }),
    );
    expect(refused.kind === 'error' && refused.errors[0].code).toBe('781');
  });

  it('a card that needs 3-D Secure without a SecurePaymentAlert: 780; other cards never get a challenge', async () => {
    const { rq } = await orderFor('4000000000003220');
    const plain = { ...rq };
    delete plain.securePayment;
    const rs = await c.orderXml(encodeOrderCreateRq(plain));
    expect(rs.kind === 'error' && rs.errors[0].code).toBe('780');
    const other = await orderFor('4111111111111111');
    expect((await c.orderXml(encodeOrderCreateRq(other.rq))).kind).toBe('success');
  });

  it('fault simulator: CustomerInput commit-then-timeout orders, withholds the answer; the order is found by lookup', async () => {
    const { rq, shoppingResponseId } = await orderFor('4000000000003220');
    const sp = (await challenge(rq)).securePayments[0];
    const paRes = (await decide(sp.acsUrl!, 'approve')).searchParams.get('PaRes')!;
    expect((await armFault(airline.url, 'CustomerInput', 'commit-then-timeout', 1, 60_000)).status).toBe(201);
    const xml = encodeCustomerInputRs({
      target: 'Test',
      version: '17.2',
      kind: 'success',
      securePayments: [{ paRes, spmTxnReference: sp.spmTxnReference, originalTransactionId: 'TX-0001', status: 'Y' }],
    });
    expect(await postOrderWithin(airline.url, xml, 300)).toBe('timed out');
    const found = await c.getOrders(shoppingResponseId, AGENCY);
    expect(found.status).toBe(200);
    expect(checkXml(found)).toBe('OrderViewRS');
    const foundView = decodeOrderViewRs(found.text);
    if (foundView.kind !== 'success') throw new Error(found.text);
    // Sent again: the order its first use made, not a second one, not an error.
    const again = await customerInput(paRes, sp.spmTxnReference!);
    expect(again.kind === 'success' && again.orders[0].orderId).toBe(foundView.orders[0].orderId);
  });

  it('fault simulator: CustomerInput lost before it was carried out (reset): no order; sent again, it orders once', async () => {
    const { rq, shoppingResponseId } = await orderFor('4000000000003220');
    const before = seatsSold(rq);
    const sp = (await challenge(rq)).securePayments[0];
    const paRes = (await decide(sp.acsUrl!, 'approve')).searchParams.get('PaRes')!;
    expect((await armFault(airline.url, 'CustomerInput', 'reset')).status).toBe(201);
    const xml = encodeCustomerInputRs({
      target: 'Test',
      version: '17.2',
      kind: 'success',
      securePayments: [{ paRes, spmTxnReference: sp.spmTxnReference, originalTransactionId: 'TX-0001', status: 'Y' }],
    });
    await expect(postXml(airline.url, '/retail/orders', xml)).rejects.toThrow();
    expect((await c.getOrders(shoppingResponseId, AGENCY)).text).toContain('Code="913"');
    const rs = await customerInput(paRes, sp.spmTxnReference!);
    expect(rs.kind).toBe('success');
    expect(seatsSold(rq)).toBe(before + 1);
    expect(store.orders.ordersByShoppingResponse(shoppingResponseId)).toHaveLength(1);
  });

  it('the NDC client (plain and SOAP 1.1): orderCreate answers a typed challenge, customerInput the order', async () => {
    for (const binding of ['plain', 'soap11'] as const) {
      const client = new NdcHttpClient({ ...ndcClientConfig(airline), binding });
      try {
        const { rq } = await orderFor('4000000000003220');
        const answer = await client.orderCreate(rq);
        if (!isAuthenticationChallenge(answer)) throw new Error('expected a challenge');
        expect(answer.payment.acsUrl).toBe(`${airline.url}/acs/${answer.payment.spmTxnReference}`);
        const term = await decide(answer.payment.acsUrl, 'approve');
        const placed = await client.customerInput({
          target: 'Test',
          version: '17.2',
          kind: 'success',
          securePayments: [
            {
              paRes: term.searchParams.get('PaRes')!,
              spmTxnReference: answer.payment.spmTxnReference,
              originalTransactionId: answer.payment.originalTransactionId,
              status: 'Y',
            },
          ],
        });
        expect(placed.rs.orders[0].statusCode).toBe('OK');
      } finally {
        client.close();
      }
    }
  });
});
