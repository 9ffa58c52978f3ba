import { decodeOrderChangeNotif, ndcDocument } from '../../ndc';
import { ORDER_ID, orderViewRs } from '../../ndc/fixtures/order-view-rs.fixtures';
import { expectValidXsd } from '../../../test/support/xsd';
import { AirlineStore, type StoredOrderView } from '../store/airline.store';
import { MAX_RETRY_MS, NotificationOutbox } from './notification-outbox';

const PASSWORD = 'outbox-secret';

/** The fixture order's view at `version`. */
function viewAt(version: number): StoredOrderView {
  if (orderViewRs.kind !== 'success') throw new Error('fixture: a success form');
  return { ...orderViewRs, sequenceNumber: version };
}

describe('NotificationOutbox', () => {
  let store: AirlineStore;
  let nowMs: number;
  const clock = { now: () => new Date(nowMs) };
  const logs: string[] = [];
  const logger = { log: (m: string) => logs.push(m), warn: (m: string) => logs.push(m) };
  let answers: number[];
  const sent: { url: string; init: RequestInit }[] = [];
  const send = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(url), init: init! });
    return new Response('{}', { status: answers.shift() ?? 200 });
  }) as unknown as typeof fetch;

  const outbox = (binding: 'plain' | 'soap12' = 'plain') =>
    new NotificationOutbox(
      store,
      clock,
      { airlineCode: 'XS', extensionNamespace: 'http://ext.example/ndc', exchangeNamespace: 'http://hub.example/x' },
      { url: 'http://agency.example/{agency}/notify', username: 'XS', password: PASSWORD, binding, retryMs: 100 },
      logger,
      send,
    );

  beforeEach(() => {
    store = new AirlineStore(':memory:');
    nowMs = Date.parse('2026-11-25T09:30:00Z');
    answers = [];
    sent.length = 0;
    logs.length = 0;
  });
  afterEach(() => store.close());

  it('sends each version once acknowledged, in order per order, retrying with a doubled wait; never logs the credential', async () => {
    const box = outbox();
    store.transaction(() => {
      box.queueInTransaction({ view: viewAt(2), agencyId: 'SAGA 01', action: 'Update', reason: 'XS101 retimed' });
      box.queueInTransaction({ view: viewAt(3), agencyId: 'SAGA 01', action: 'Cancel', reason: 'cancelled' });
      // The same version queued again is one notification.
      box.queueInTransaction({ view: viewAt(3), agencyId: 'SAGA 01', action: 'Cancel', reason: 'cancelled' });
    });
    answers = [500, 503];
    await box.sendDue();
    // Version 2 failed: version 3 waits behind it.
    expect(sent.map((s) => s.url)).toEqual(['http://agency.example/SAGA%2001/notify']);
    expect(box.nextDue()?.toISOString()).toBe('2026-11-25T09:30:00.100Z');
    nowMs += 100;
    await box.sendDue();
    expect(box.nextDue()?.toISOString()).toBe('2026-11-25T09:30:00.300Z');
    nowMs += 200;
    await box.sendDue();
    const bodies = sent.map((s) => decodeOrderChangeNotif(String(s.init.body)));
    expect(bodies.map((n) => [n.sequenceNumber, n.amendments[0]!.actionType])).toEqual([
      [2, 'Update'],
      [2, 'Update'],
      [2, 'Update'],
      [3, 'Cancel'],
    ]);
    expect(store.notifications.ofOrder(ORDER_ID).map((n) => [n.version, n.attempts, n.deliveredAt])).toEqual([
      [2, 3, '2026-11-25T09:30:00.300Z'],
      [3, 1, '2026-11-25T09:30:00.300Z'],
    ]);
    expect(box.nextDue()).toBeUndefined();
    const headers = sent[0]!.init.headers as Record<string, string>;
    expect(headers).toEqual({
      'Content-Type': 'application/xml; charset=utf-8',
      Authorization: `Basic ${Buffer.from(`XS:${PASSWORD}`).toString('base64')}`,
    });
    expect(bodies[0]!.party).toEqual({ airlineId: 'XS', agencyId: 'SAGA 01' });
    expectValidXsd(String(sent[0]!.init.body), 'OrderChangeNotif');
    expect(logs.join('\n')).not.toContain(PASSWORD);
    expect(logs.join('\n')).not.toContain(Buffer.from(`XS:${PASSWORD}`).toString('base64'));
  });

  it('waits at most five minutes between attempts, and writes the binding (SOAP 1.2)', async () => {
    const box = outbox('soap12');
    store.transaction(() =>
      box.queueInTransaction({ view: viewAt(2), agencyId: 'SAGA01', action: 'Update', reason: 'retimed' }),
    );
    answers = Array.from({ length: 20 }, () => 500);
    const waits: number[] = [];
    for (let i = 0; i < 14; i++) {
      await box.sendDue();
      const next = box.nextDue()!.getTime();
      waits.push(next - nowMs);
      nowMs = next;
    }
    expect(waits).toEqual([
      100,
      200,
      400,
      800,
      1600,
      3200,
      6400,
      12800,
      25600,
      51200,
      102400,
      204800,
      MAX_RETRY_MS,
      MAX_RETRY_MS,
    ]);
    const [n] = store.notifications.ofOrder(ORDER_ID);
    expect([n!.attempts, n!.lastError, n!.deliveredAt]).toEqual([14, 'HTTP 500', undefined]);
    const headers = sent[0]!.init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/soap+xml; charset=utf-8; action="OrderChangeNotif"');
    expect(String(sent[0]!.init.body)).toMatch(/^<\?xml[^>]*\?><env:Envelope /);
    expectValidXsd(ndcDocument(String(sent[0]!.init.body)), 'OrderChangeNotif');
  });

  it('writes the NDC Exchange binding: SOAP 1.1 with the airline as sender and the agency as recipient', async () => {
    const box = new NotificationOutbox(
      store,
      clock,
      { airlineCode: 'XS', extensionNamespace: 'http://ext.example/ndc', exchangeNamespace: 'http://hub.example/x' },
      { url: 'http://hub.example/push', username: 'XS', password: PASSWORD, binding: 'ndcexchange', retryMs: 100 },
      logger,
      send,
    );
    store.transaction(() =>
      box.queueInTransaction({ view: viewAt(4), agencyId: 'SAGA01', action: 'Update', reason: 'retimed' }),
    );
    await box.sendDue();
    const body = String(sent[0]!.init.body);
    expect((sent[0]!.init.headers as Record<string, string>).SOAPAction).toBe('"OrderChangeNotif"');
    expect(body).toContain(
      '<ndcx:NDCMSG_Envelope xmlns:ndcx="http://hub.example/x"><ndcx:NDCMSG_Header><ndcx:Sender><ndcx:SellerID>XS</ndcx:SellerID>' +
        '</ndcx:Sender><ndcx:Recipient><ndcx:Company>SAGA01</ndcx:Company></ndcx:Recipient>',
    );
    expect(decodeOrderChangeNotif(body).sequenceNumber).toBe(4);
    expectValidXsd(ndcDocument(body), 'OrderChangeNotif');
  });

  it('queues nothing when the airline pushes to nobody (AIRLINE_NOTIFY_URL unset)', async () => {
    const box = new NotificationOutbox(
      store,
      clock,
      { airlineCode: 'XS', extensionNamespace: 'http://ext.example/ndc', exchangeNamespace: 'http://hub.example/x' },
      undefined,
      logger,
      send,
    );
    store.transaction(() =>
      box.queueInTransaction({ view: viewAt(2), agencyId: 'SAGA01', action: 'Update', reason: 'retimed' }),
    );
    await box.sendDue();
    expect([store.notifications.ofOrder(ORDER_ID), sent, box.nextDue()]).toEqual([[], [], undefined]);
  });
});
