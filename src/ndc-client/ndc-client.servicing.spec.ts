import { PROVIDER_NS, providerWrapped, startNdcServer, type NdcTestServer } from '../../test/support/ndc';
import {
  decodeOrderChangeRq,
  decodeOrderReshopRq,
  decodeOrderViewRs,
  decodeSeatAvailabilityRq,
  decodeServiceListRq,
  encodeCustomerInputRq,
  encodeOrderChangeNotif,
  encodeOrderReshopRs,
  encodeOrderViewRs,
  encodeSeatAvailabilityRs,
  encodeServiceListRs,
  NDC_BINDINGS,
  NdcDecodeError,
  wrapInBinding,
  type NdcBinding,
} from '../ndc';
import { customerInputRq } from '../ndc/fixtures/customer-input.fixtures';
import {
  orderSeatAvailabilityRq,
  orderServiceListRq,
  seatAvailabilityRs,
  serviceListRs,
} from '../ndc/fixtures/extras.fixtures';
import { acceptChangeOfferRq, payHeldOrderRq, removePassengerChangeRq } from '../ndc/fixtures/order-change.fixtures';
import { cancelledFlightNotif, retimeNotif } from '../ndc/fixtures/order-change-notif.fixtures';
import { changeOffersRs, changeReshopRq, refundQuoteRq, reshopErrorRs } from '../ndc/fixtures/order-reshop.fixtures';
import { orderNotFoundRs, orderViewRs } from '../ndc/fixtures/order-view-rs.fixtures';
import { NdcHttpClient, isAuthenticationChallenge } from './ndc-client';
import { NdcBusinessError, NdcClientError, isOutcomeUnknown } from './ndc-client.errors';
import { orderChangeNotifKey, readOrderChangeNotif } from './order-change-notification';

describe('NdcHttpClient: servicing an order', () => {
  let airline: NdcTestServer;
  const clients: NdcHttpClient[] = [];
  const clientOf = (binding: NdcBinding = 'plain') => {
    const c = new NdcHttpClient({
      retailBaseUrl: airline.baseUrl,
      paymentBaseUrl: airline.baseUrl,
      username: 'agency',
      password: 'secret',
      binding,
      // Generous: a busy machine must not turn an answer into a timeout.
      timeoutMs: 10_000,
    });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    airline = await startNdcServer();
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await airline.close();
  });
  beforeEach(() => {
    airline.seen.length = 0;
  });

  async function failure(promise: Promise<unknown>): Promise<NdcClientError> {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(NdcClientError);
      return error as NdcClientError;
    }
    throw new Error('expected a failure');
  }

  it('OrderReshopRQ on POST /retail/orders in every binding, the OrderReshopRS decoded; NDC errors are NdcBusinessError', async () => {
    for (const binding of NDC_BINDINGS) {
      airline.seen.length = 0;
      const client = clientOf(binding);
      airline.answer(wrapInBinding(encodeOrderReshopRs(changeOffersRs), binding));
      expect([binding, await client.orderReshop(changeReshopRq, { correlationId: 'c-1' })]).toStrictEqual([
        binding,
        changeOffersRs,
      ]);
      const request = airline.seen[0]!;
      expect([request.method, request.url, request.headers['x-correlation-id']]).toEqual([
        'POST',
        '/retail/orders',
        'c-1',
      ]);
      if (binding === 'soap11') expect(request.headers.soapaction).toBe('"OrderReshopRQ"');
      expect(decodeOrderReshopRq(request.body)).toStrictEqual(changeReshopRq);
    }
    airline.answer(encodeOrderReshopRs(reshopErrorRs));
    const refused = await failure(clientOf().orderReshop(refundQuoteRq));
    expect([refused.constructor, (refused as NdcBusinessError).code, isOutcomeUnknown(refused)]).toEqual([
      NdcBusinessError,
      '710',
      false,
    ]);
  });

  it('OrderChangeRQ on POST /retail/orders: the new OrderViewRS, or a 3-D Secure challenge as for OrderCreate', async () => {
    for (const binding of NDC_BINDINGS) {
      airline.seen.length = 0;
      const client = clientOf(binding);
      airline.answer(wrapInBinding(encodeOrderViewRs(orderViewRs), binding));
      const changed = await client.orderChange(acceptChangeOfferRq);
      if (isAuthenticationChallenge(changed)) throw new Error('expected the order');
      expect([binding, changed.rs]).toStrictEqual([binding, decodeOrderViewRs(encodeOrderViewRs(orderViewRs))]);
      expect([airline.seen[0]!.method, airline.seen[0]!.url]).toEqual(['POST', '/retail/orders']);
      expect(decodeOrderChangeRq(airline.seen[0]!.body)).toStrictEqual(acceptChangeOfferRq);
    }
    airline.answer(encodeCustomerInputRq(customerInputRq));
    const challenged = await clientOf().orderChange(payHeldOrderRq);
    if (!isAuthenticationChallenge(challenged)) throw new Error('expected a challenge');
    expect(challenged.payment).toStrictEqual(customerInputRq.securePayments[0]);
  });

  it('OrderChange failures: definite (NDC Errors, 4xx, not connected) vs outcome unknown once it may have reached the airline', async () => {
    const client = clientOf();
    airline.answer(encodeOrderViewRs(orderNotFoundRs));
    const refused = await failure(client.orderChange(removePassengerChangeRq));
    expect([refused.kind, refused.requestSent, isOutcomeUnknown(refused)]).toEqual(['NDC', true, false]);
    airline.answer('<html>bad request</html>', 400);
    expect(isOutcomeUnknown(await failure(client.orderChange(removePassengerChangeRq)))).toBe(false);
    airline.handle((req) => req.socket.destroy());
    const cut = await failure(client.orderChange(removePassengerChangeRq));
    expect([cut.kind, cut.requestSent, isOutcomeUnknown(cut)]).toEqual(['NETWORK', true, true]);
    airline.answer('<html>busy</html>', 503);
    expect(isOutcomeUnknown(await failure(client.orderChange(removePassengerChangeRq)))).toBe(true);
    airline.answer('<OrderViewRS>cut');
    const garbled = await failure(client.orderChange(removePassengerChangeRq));
    expect([garbled.kind, isOutcomeUnknown(garbled)]).toEqual(['INVALID_RESPONSE', true]);
    const dead = new NdcHttpClient({
      retailBaseUrl: 'http://127.0.0.1:1',
      paymentBaseUrl: 'http://127.0.0.1:1',
      username: 'u',
      password: 'p',
    });
    clients.push(dead);
    const notSent = await failure(dead.orderChange(removePassengerChangeRq));
    expect([notSent.kind, notSent.requestSent, isOutcomeUnknown(notSent)]).toEqual(['CONNECT', false, false]);
    expect(isOutcomeUnknown(new Error('not a client error'))).toBe(false);
  });

  it('ServiceList and SeatAvailability for an order: the order forms on the extras paths', async () => {
    const client = clientOf();
    airline.answer(encodeServiceListRs(serviceListRs));
    const { offers: _offers, shoppingResponseId: _sr, ...forOrder } = orderServiceListRq;
    expect(await client.orderServiceList({ ...forOrder, order: orderServiceListRq.order! })).toStrictEqual(
      serviceListRs,
    );
    expect([airline.seen[0]!.url, decodeServiceListRq(airline.seen[0]!.body)]).toStrictEqual([
      '/retail/services',
      orderServiceListRq,
    ]);
    airline.answer(encodeSeatAvailabilityRs(seatAvailabilityRs));
    const { offer: _offer, ...seatsForOrder } = orderSeatAvailabilityRq;
    expect(
      await client.orderSeatAvailability({ ...seatsForOrder, order: orderSeatAvailabilityRq.order! }),
    ).toStrictEqual(seatAvailabilityRs);
    expect([airline.seen[1]!.url, decodeSeatAvailabilityRq(airline.seen[1]!.body)]).toStrictEqual([
      '/retail/availability/seat',
      orderSeatAvailabilityRq,
    ]);
  });
});

describe('readOrderChangeNotif', () => {
  it('reads a pushed notification in every binding, says which, and keeps the NDC document', () => {
    const xml = encodeOrderChangeNotif(retimeNotif);
    for (const binding of NDC_BINDINGS) {
      const received = readOrderChangeNotif(Buffer.from(wrapInBinding(xml, binding, { sellerId: 'XS' })));
      expect([received.binding, received.notif]).toStrictEqual([binding, retimeNotif]);
      expect(/^(?:<\?xml[^>]*\?>)?<OrderChangeNotif [^>]*>/.exec(received.xml)?.[0]).toContain(' SequenceNmbr="3"');
      expect(received.xml.endsWith('</OrderChangeNotif>')).toBe(true);
    }
  });

  it("reads with the airline's namespaces (profile.client fits), refuses what is not a notification with the codec's error", () => {
    const wrapped = providerWrapped(encodeOrderChangeNotif(cancelledFlightNotif, { extensionNamespace: 'urn:x:ext' }));
    expect(() => readOrderChangeNotif(wrapped)).toThrow(NdcDecodeError);
    expect(
      readOrderChangeNotif(wrapped, { documentNamespace: PROVIDER_NS, extensionNamespace: 'urn:x:ext' }).notif,
    ).toStrictEqual(cancelledFlightNotif);
    const notNotif = (() => {
      try {
        readOrderChangeNotif(encodeOrderViewRs(orderViewRs));
      } catch (e) {
        return e as NdcDecodeError;
      }
      throw new Error('expected an NdcDecodeError');
    })();
    expect([notNotif.code, notNotif.path]).toEqual(['WRONG_ROOT', '/OrderViewRS']);
    expect(() => readOrderChangeNotif(encodeOrderChangeNotif(retimeNotif), { maxBytes: 100 })).toThrow(
      'document larger than 100 bytes',
    );
  });

  it('keys a change of an order by its owner, id and version, else its transaction id', () => {
    expect(orderChangeNotifKey(retimeNotif)).toBe('XS/ORD-9K2Q7X/3');
    expect(orderChangeNotifKey(cancelledFlightNotif)).toBe('XS/ORD-9K2Q7X/4');
    const { sequenceNumber: _seq, ...unnumbered } = retimeNotif;
    expect(orderChangeNotifKey(unnumbered)).toBe('XS/ORD-9K2Q7X/NTF-ORD-9K2Q7X-3');
    const { transactionIdentifier: _tx, ...anonymous } = unnumbered;
    expect(orderChangeNotifKey(anonymous)).toBeUndefined();
  });
});
