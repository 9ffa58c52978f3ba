import { gzipSync } from 'node:zlib';
import {
  inProviderSoapBody,
  PROVIDER_NS,
  providerWrapped,
  startNdcServer,
  type NdcServerHandler,
  type NdcTestServer,
  type SeenRequest,
} from '../../test/support/ndc';
import {
  decodeAirShoppingRs,
  decodeCustomerInputRs,
  decodeOrderViewRs,
  encodeAirShoppingRs,
  encodeCustomerInputRq,
  encodeOrderCancelRs,
  encodeOrderViewRs,
  NDC_BINDINGS,
  NDC_NS,
  NdcDecodeError,
  wrapInBinding,
  type NdcBinding,
} from '../ndc';
import { dayRoundTripRq } from '../ndc/fixtures/air-shopping-rq.fixtures';
import { dayRoundTripRs } from '../ndc/fixtures/air-shopping-rs.fixtures';
import { customerInputRq, customerInputRs } from '../ndc/fixtures/customer-input.fixtures';
import { familyOrderCreateRq } from '../ndc/fixtures/order-create-rq.fixtures';
import { orderAlreadyCancelledRs, orderCancelRq, orderCancelRs } from '../ndc/fixtures/order-cancel.fixtures';
import { orderNotFoundRs, orderViewRs, ORDER_ID } from '../ndc/fixtures/order-view-rs.fixtures';
import { orderRetrieveRq } from '../ndc/fixtures/order-retrieve-rq.fixtures';
import { InMemorySpanExporter, setupTracing } from '../common/observability/tracing';
import { NdcHttpClient, isAuthenticationChallenge } from './ndc-client';
import {
  NdcBusinessError,
  NdcClientError,
  NdcHttpError,
  NdcInvalidResponseError,
  NdcTransportError,
} from './ndc-client.errors';

describe('NdcHttpClient against a local HTTP server', () => {
  let airline: NdcTestServer;
  let baseUrl: string;
  let client: NdcHttpClient;
  let seen: SeenRequest[];
  const handler = (h: NdcServerHandler) => airline.handle(h);

  beforeAll(async () => {
    airline = await startNdcServer();
    baseUrl = airline.baseUrl;
    seen = airline.seen;
    client = new NdcHttpClient({
      retailBaseUrl: baseUrl,
      paymentBaseUrl: `${baseUrl}/pay`,
      username: 'agency',
      password: 'secret',
      // Generous: a busy machine must not turn an answer into a timeout (the timeout test has its own client).
      timeoutMs: 10_000,
    });
  });

  afterAll(async () => {
    client.close();
    await airline.close();
  });

  beforeEach(() => {
    seen.length = 0;
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

  it('sends Basic auth, the vendor media type and correlation headers, and decodes a gzip body', async () => {
    handler((_req, _body, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/vnd.ndcsaga.ndc.v17.2+xml;charset=UTF-8',
        'Content-Encoding': 'gzip',
      });
      res.end(gzipSync(encodeOrderViewRs(orderViewRs)));
    });
    const { rs, xml } = await client.orderRetrieve(orderRetrieveRq, { correlationId: 'corr-1', transactionId: 'tx-1' });
    expect(rs.kind).toBe('success');
    expect(rs.orders[0]!.orderId).toBe(ORDER_ID);
    expect(xml).toBe(encodeOrderViewRs(orderViewRs));
    const request = seen[0]!;
    expect([request.method, request.url]).toEqual(['POST', '/retail/orders']);
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('agency:secret').toString('base64')}`);
    expect(request.headers.accept).toBe('application/vnd.ndcsaga.ndc.v17.2+xml;charset=UTF-8');
    expect(request.headers['content-type']).toBe('application/vnd.ndcsaga.ndc.v17.2+xml;charset=UTF-8');
    expect(request.headers['accept-encoding']).toBe('gzip, deflate');
    expect(request.headers['x-correlation-id']).toBe('corr-1');
    expect(request.headers['x-transactionidentifier']).toBe('tx-1');
    expect(request.body).toContain('<OrderRetrieveRQ');
  });

  it('sends the active span as W3C traceparent when tracing is on, and none when it is off', async () => {
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/vnd.ndcsaga.ndc.v17.2+xml;charset=UTF-8' });
      res.end(encodeOrderViewRs(orderViewRs));
    });
    await client.orderRetrieve(orderRetrieveRq);
    expect(seen[0]!.headers.traceparent).toBeUndefined();
    const tracing = setupTracing({ service: 'test', env: {}, exporter: new InMemorySpanExporter() })!;
    try {
      await tracing.tracer.startActiveSpan('NDC OrderRetrieve', async (active) => {
        await client.orderRetrieve(orderRetrieveRq);
        const { traceId, spanId } = active.spanContext();
        expect(seen[1]!.headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);
        active.end();
      });
    } finally {
      await tracing.shutdown();
    }
  });

  it('AIRLINE_BINDING=soap11 / soap12: sends the message in a SOAP envelope with the SOAP headers, reads a SOAP answer', async () => {
    for (const binding of ['soap11', 'soap12'] as const) {
      seen.length = 0;
      const soapClient = new NdcHttpClient({
        retailBaseUrl: baseUrl,
        paymentBaseUrl: baseUrl,
        username: 'a',
        password: 'b',
        binding,
      });
      handler((_req, _body, res) => {
        res.writeHead(200, {
          'Content-Type': binding === 'soap11' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8',
        });
        res.end(wrapInBinding(encodeOrderViewRs(orderViewRs), binding));
      });
      const { rs, xml } = await soapClient.orderRetrieve(orderRetrieveRq);
      soapClient.close();
      expect(rs.orders[0]!.orderId).toBe(ORDER_ID);
      // The state keeps the NDC document, not the envelope (the envelope's namespace declarations copied onto it).
      expect(xml.startsWith('<OrderViewRS ')).toBe(true);
      expect(xml.endsWith('</OrderViewRS>')).toBe(true);
      expect(decodeOrderViewRs(xml)).toEqual(decodeOrderViewRs(encodeOrderViewRs(orderViewRs)));
      const request = seen[0]!;
      if (binding === 'soap11') {
        expect(request.headers['content-type']).toBe('text/xml; charset=utf-8');
        expect(request.headers.soapaction).toBe('"OrderRetrieveRQ"');
        expect(request.headers.accept).toBe('text/xml; charset=utf-8');
        expect(request.body).toMatch(
          /^<\?xml[^>]*\?><soap:Envelope xmlns:soap="http:\/\/schemas.xmlsoap.org\/soap\/envelope\/"><soap:Body><OrderRetrieveRQ/,
        );
      } else {
        expect(request.headers['content-type']).toBe('application/soap+xml; charset=utf-8; action="OrderRetrieveRQ"');
        expect(request.headers.soapaction).toBeUndefined();
        expect(request.body).toContain(
          '<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><OrderRetrieveRQ',
        );
      }
    }
  });

  it('AIRLINE_BINDING=ndcexchange: reads the answer envelope header liberally; another schema is an invalid response naming it', async () => {
    const exchangeClient = new NdcHttpClient({
      retailBaseUrl: baseUrl,
      paymentBaseUrl: baseUrl,
      username: 'a',
      password: 'b',
      binding: 'ndcexchange',
      exchange: { sellerId: 'AGENCY01', recipient: 'XS' },
    });
    const answer = (schemaType: string, schemaVersion: string) => {
      handler((_req, _body, res) => {
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
        const xml = wrapInBinding(encodeOrderViewRs(orderViewRs), 'ndcexchange', { sellerId: 'XS', schemaVersion });
        res.end(xml.replace('<ndcx:SchemaType>NDC<', `<ndcx:SchemaType>${schemaType}<`));
      });
    };
    try {
      for (const [type, version] of [
        ['NDC', 'YY.2017.2'],
        ['ndc', 'XS.17.2'],
        ['NDC', '2017.2'],
      ]) {
        answer(type, version);
        expect((await exchangeClient.orderRetrieve(orderRetrieveRq)).rs.orders[0]!.orderId).toBe(ORDER_ID);
      }
      expect(seen[0]!.body).toContain('<ndcx:Sender><ndcx:SellerID>AGENCY01</ndcx:SellerID></ndcx:Sender>');
      answer('NDC', 'YY.2018.1');
      const wrongVersion = await failure(exchangeClient.orderRetrieve(orderRetrieveRq));
      expect(wrongVersion).toBeInstanceOf(NdcInvalidResponseError);
      expect(wrongVersion.message).toContain('NDCMSG_Header/Message/SchemaVersion YY.2018.1 is not NDC 17.2');
      answer('EDIFACT', 'YY.2017.2');
      expect((await failure(exchangeClient.orderRetrieve(orderRetrieveRq))).message).toContain(
        'NDCMSG_Header/Message/SchemaType EDIFACT is not NDC',
      );
    } finally {
      exchangeClient.close();
    }
  });

  it("AIRLINE_EXTENSION_NAMESPACE: reads and writes the extension elements in the airline's namespace", async () => {
    const ns = 'urn:example:other-vendor:ndc-ext';
    const other = new NdcHttpClient({
      retailBaseUrl: baseUrl,
      paymentBaseUrl: baseUrl,
      username: 'a',
      password: 'b',
      extensionNamespace: ns,
    });
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(encodeOrderViewRs(orderViewRs, { extensionNamespace: ns }));
    });
    const { rs } = await other.orderRetrieve(orderRetrieveRq);
    other.close();
    expect(rs).toEqual(decodeOrderViewRs(encodeOrderViewRs(orderViewRs)));
    expect(seen[0]!.body).not.toContain('ndc-saga.dev');
  });

  it('documentNamespace (regression: answers in a provider namespace, as American Airlines sends them, were refused at the root): refused by default, read in every binding when the profile names it', async () => {
    const clientOf = (binding: NdcBinding, documentNamespace?: string) =>
      new NdcHttpClient({
        retailBaseUrl: baseUrl,
        paymentBaseUrl: baseUrl,
        username: 'a',
        password: 'b',
        binding,
        timeoutMs: 10_000,
        ...(documentNamespace !== undefined ? { documentNamespace } : {}),
      });
    const answer = (xml: string, status = 200) => {
      handler((_req, _body, res) => {
        res.writeHead(status, { 'Content-Type': 'application/xml' });
        res.end(xml);
      });
    };
    const edistOrder = decodeOrderViewRs(encodeOrderViewRs(orderViewRs));
    for (const binding of NDC_BINDINGS) {
      const strict = clientOf(binding);
      const aa = clientOf(binding, PROVIDER_NS);
      try {
        answer(wrapInBinding(providerWrapped(encodeOrderViewRs(orderViewRs)), binding));
        const refused = await failure(strict.orderRetrieve(orderRetrieveRq));
        expect([binding, refused.constructor, refused.message]).toEqual([
          binding,
          NdcInvalidResponseError,
          'undecodable OrderViewRS: expected root OrderViewRS, got ProviderResponse at /ProviderResponse',
        ]);
        expect(refused.cause).toBeInstanceOf(NdcDecodeError);
        const { rs, xml } = await aa.orderRetrieve(orderRetrieveRq);
        expect([binding, rs]).toStrictEqual([binding, edistOrder]);
        // What the state keeps: the NDC document out of envelope and wrapper, in the namespace it came in.
        expect(/^<OrderViewRS [^>]*>/.exec(xml)?.[0]).toContain(` xmlns="${PROVIDER_NS}"`);
        expect(xml.endsWith('</OrderViewRS>')).toBe(true);
        answer(wrapInBinding(providerWrapped(encodeAirShoppingRs(dayRoundTripRs)), binding));
        expect(await aa.airShopping(dayRoundTripRq)).toStrictEqual(
          decodeAirShoppingRs(encodeAirShoppingRs(dayRoundTripRs)),
        );
        // The 3-D Secure challenge an OrderCreateRQ may get is told apart through the wrapper too.
        answer(wrapInBinding(providerWrapped(encodeCustomerInputRq(customerInputRq)), binding));
        const challenge = await aa.orderCreate(familyOrderCreateRq);
        expect(isAuthenticationChallenge(challenge) && challenge.challenge).toStrictEqual(customerInputRq);
        // NDC errors, in a 200 and in an HTTP error body.
        answer(wrapInBinding(providerWrapped(encodeOrderViewRs(orderNotFoundRs)), binding));
        expect(((await failure(aa.orderRetrieve(orderRetrieveRq))) as NdcBusinessError).code).toBe('913');
        answer(wrapInBinding(providerWrapped(encodeOrderViewRs(orderNotFoundRs)), binding), 404);
        expect(
          ((await failure(aa.orderRetrieve(orderRetrieveRq))) as NdcHttpError).ndcErrors.map((e) => e.code),
        ).toEqual(['913']);
      } finally {
        strict.close();
        aa.close();
      }
    }
    // The NDC root straight in a SOAP Body that sets the provider's default namespace.
    const strict = clientOf('soap11');
    const aa = clientOf('soap11', PROVIDER_NS);
    try {
      answer(inProviderSoapBody(encodeOrderViewRs(orderViewRs)));
      expect((await failure(strict.orderRetrieve(orderRetrieveRq))).message).toBe(
        `undecodable OrderViewRS: root must be in namespace ${NDC_NS}, got ${PROVIDER_NS} at /OrderViewRS`,
      );
      expect((await aa.orderRetrieve(orderRetrieveRq)).rs).toStrictEqual(edistOrder);
    } finally {
      strict.close();
      aa.close();
    }
  });

  it('keeps the cause of every failure it wraps: the decode error, the socket error, the JSON error', async () => {
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end('<html>maintenance</html>');
    });
    const invalid = await failure(client.orderRetrieve(orderRetrieveRq));
    expect(invalid.cause).toBeInstanceOf(NdcDecodeError);
    expect((invalid.cause as NdcDecodeError).code).toBe('WRONG_ROOT');
    handler((req) => req.socket.destroy());
    const reset = await failure(client.orderRetrieve(orderRetrieveRq));
    expect((reset.cause as NodeJS.ErrnoException).code).toBe((reset as NdcTransportError).causeCode);
    handler((_req, _body, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end('{"id":');
    });
    const notJson = await failure(
      client.createToken({
        expiryDateTimeUTC: '2030-01-01T00:00:00',
        card: {
          number: '4111111111111111',
          name: 'A B',
          address: { addressLine1: 'x', postalCode: 'y', cityName: 'z', countryCode: 'GB' },
          expirationYear: 2030,
          expirationMonth: 1,
          verificationCode: '737',
        },
      }),
    );
    expect([notJson.message, notJson.cause instanceof SyntaxError]).toEqual([
      'POST /payment/tokens: body is not JSON',
      true,
    ]);
    const dead = new NdcHttpClient({
      retailBaseUrl: 'http://127.0.0.1:1',
      paymentBaseUrl: baseUrl,
      username: 'u',
      password: 'p',
    });
    try {
      const refused = await failure(dead.orderRetrieve(orderRetrieveRq));
      expect([refused.kind, (refused.cause as NodeJS.ErrnoException).code]).toEqual(['CONNECT', 'ECONNREFUSED']);
    } finally {
      dead.close();
    }
  });

  it('cancels an order: OrderCancelRQ on /retail/orders, refund and fee decoded; an Errors answer is NdcBusinessError', async () => {
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(encodeOrderCancelRs(orderCancelRs));
    });
    const rs = await client.orderCancel(orderCancelRq);
    expect(rs.cancellations).toEqual(orderCancelRs.kind === 'success' ? orderCancelRs.cancellations : []);
    expect([seen[0]!.method, seen[0]!.url]).toEqual(['POST', '/retail/orders']);
    expect(seen[0]!.body).toContain('<OrderCancelRQ');
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(encodeOrderCancelRs(orderAlreadyCancelledRs));
    });
    const error = await failure(client.orderCancel(orderCancelRq));
    expect(error).toBeInstanceOf(NdcBusinessError);
    expect((error as NdcBusinessError).code).toBe('916');
  });

  it('OrderCreate answered with CustomerInputRQ is a typed challenge, not an error; customerInput sends CustomerInputRS', async () => {
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(encodeCustomerInputRq(customerInputRq));
    });
    const answer = await client.orderCreate(familyOrderCreateRq);
    if (!isAuthenticationChallenge(answer)) throw new Error('expected a challenge');
    expect(answer.challenge).toStrictEqual(customerInputRq);
    expect(answer.payment).toStrictEqual(customerInputRq.securePayments[0]);
    expect(answer.xml).toBe(encodeCustomerInputRq(customerInputRq));

    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(encodeOrderViewRs(orderViewRs));
    });
    const placed = await client.customerInput(customerInputRs);
    expect(placed.rs.orders[0].orderId).toBe(ORDER_ID);
    expect([seen[1]!.method, seen[1]!.url]).toEqual(['POST', '/retail/orders']);
    expect(decodeCustomerInputRs(seen[1]!.body)).toStrictEqual(customerInputRs);
    expect(isAuthenticationChallenge(await client.orderCreate(familyOrderCreateRq))).toBe(false);
  });

  it('customerInput: an Errors answer (declined) is NdcBusinessError; a challenge without ACS_URL is an invalid response', async () => {
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(
        encodeOrderViewRs({
          target: 'Test',
          version: '17.2',
          kind: 'error',
          errors: [{ code: '781', shortText: 'Authentication declined', status: 'Complete', text: 'declined' }],
        }),
      );
    });
    const declined = await failure(client.customerInput(customerInputRs));
    expect(declined).toBeInstanceOf(NdcBusinessError);
    expect([(declined as NdcBusinessError).code, declined.transient]).toEqual(['781', false]);
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      const noAcs = {
        ...customerInputRq,
        securePayments: [{ ...customerInputRq.securePayments[0], acsUrl: undefined }],
      };
      delete noAcs.securePayments[0].acsUrl;
      res.end(encodeCustomerInputRq(noAcs));
    });
    const invalid = await failure(client.orderCreate(familyOrderCreateRq));
    expect(invalid).toBeInstanceOf(NdcInvalidResponseError);
    expect(invalid.message).toBe('CustomerInputRQ without SecurePayment ACS_URL and SPM_TxnReference');
  });

  it('reuses the keep-alive connection', async () => {
    const ports = new Set<number>();
    handler((req, _body, res) => {
      ports.add(req.socket.remotePort!);
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(encodeOrderViewRs(orderViewRs));
    });
    await client.orderRetrieve(orderRetrieveRq);
    await client.orderRetrieve(orderRetrieveRq);
    await client.orderRetrieve(orderRetrieveRq);
    expect(ports.size).toBe(1);
  });

  it('throws NdcBusinessError (permanent) for an NDC Errors body in a 200', async () => {
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(encodeOrderViewRs(orderNotFoundRs));
    });
    const error = await failure(client.orderRetrieve(orderRetrieveRq));
    expect(error).toBeInstanceOf(NdcBusinessError);
    expect([error.kind, error.transient, (error as NdcBusinessError).code]).toEqual(['NDC', false, '913']);
  });

  it('answers undefined for 913 on GET /retail/orders, and sends the query', async () => {
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(encodeOrderViewRs(orderNotFoundRs));
    });
    expect(await client.ordersByShoppingResponse('SR123', 'AG 1', { correlationId: 'c' })).toBeUndefined();
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.url).toBe('/retail/orders?shoppingResponseId=SR123&agencyID=AG+1');
    expect(seen[0]!.headers['content-type']).toBeUndefined();
  });

  it('classifies HTTP 500 and 429 as transient, 400 and 401 as permanent', async () => {
    for (const [status, transient] of [
      [500, true],
      [503, true],
      [429, true],
      [400, false],
      [401, false],
    ] as const) {
      handler((_req, _body, res) => {
        res.writeHead(status, { 'Content-Type': 'text/plain' });
        res.end('nope');
      });
      const error = await failure(client.orderRetrieve(orderRetrieveRq));
      expect(error).toBeInstanceOf(NdcHttpError);
      expect([status, error.kind, error.transient, error.requestSent, (error as NdcHttpError).status]).toEqual([
        status,
        'HTTP',
        transient,
        true,
        status,
      ]);
    }
  });

  it('classifies a reset after the request was sent as NETWORK with requestSent', async () => {
    handler((req) => req.socket.destroy());
    const error = await failure(client.orderRetrieve(orderRetrieveRq));
    expect(error).toBeInstanceOf(NdcTransportError);
    expect([error.kind, error.transient, error.requestSent]).toEqual(['NETWORK', true, true]);
  });

  it('classifies no response within timeoutMs as TIMEOUT with requestSent', async () => {
    handler(() => undefined); // never answers
    const impatient = new NdcHttpClient({
      retailBaseUrl: baseUrl,
      paymentBaseUrl: baseUrl,
      username: 'a',
      password: 'b',
      timeoutMs: 300,
    });
    const started = Date.now();
    const error = await failure(impatient.orderRetrieve(orderRetrieveRq));
    impatient.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect([error.kind, error.transient, error.requestSent, error.message]).toEqual([
      'TIMEOUT',
      true,
      true,
      'POST /retail/orders: no response within 300 ms',
    ]);
  });

  it('classifies a refused connection as CONNECT, not sent', async () => {
    const dead = new NdcHttpClient({
      retailBaseUrl: 'http://127.0.0.1:1',
      paymentBaseUrl: 'http://127.0.0.1:1',
      username: 'u',
      password: 'p',
    });
    try {
      const error = await failure(dead.orderRetrieve(orderRetrieveRq));
      expect([error.kind, error.transient, error.requestSent]).toEqual(['CONNECT', true, false]);
    } finally {
      dead.close();
    }
  });

  it('classifies a 5xx whose gzip body is corrupt by its status (transient), not as an undecodable body', async () => {
    handler((_req, _body, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' });
      res.end('Internal Server Error');
    });
    const error = await failure(client.orderRetrieve(orderRetrieveRq));
    expect(error).toBeInstanceOf(NdcHttpError);
    expect([(error as NdcHttpError).status, error.transient, error.requestSent]).toEqual([500, true, true]);
  });

  it('classifies an undecodable body as INVALID_RESPONSE (permanent)', async () => {
    handler((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end('<html>maintenance</html>');
    });
    const error = await failure(client.orderRetrieve(orderRetrieveRq));
    expect(error).toBeInstanceOf(NdcInvalidResponseError);
    expect([error.kind, error.transient]).toEqual(['INVALID_RESPONSE', false]);
  });

  it('creates a token with JSON on the payment base URL and reports 400 with its description only', async () => {
    const card = {
      number: '4111111111111111',
      name: 'A B',
      address: { addressLine1: 'x', postalCode: 'y', cityName: 'z', countryCode: 'GB' },
      expirationYear: 2030,
      expirationMonth: 1,
      verificationCode: '737',
    };
    handler((_req, _body, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json', Location: '/payment/tokens/T1' });
      res.end(JSON.stringify({ id: 'T1', links: [] }));
    });
    expect(await client.createToken({ expiryDateTimeUTC: '2030-01-01T00:00:00', card })).toEqual({ id: 'T1' });
    expect([seen[0]!.method, seen[0]!.url, seen[0]!.headers['content-type'], seen[0]!.headers.authorization]).toEqual([
      'POST',
      '/pay/payment/tokens',
      'application/json',
      undefined,
    ]);
    expect(JSON.parse(seen[0]!.body).card.number).toBe('4111111111111111');

    handler((_req, _body, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ code: 400, description: 'Bad Request: card.number fails the Luhn check' }));
    });
    const error = await failure(client.createToken({ expiryDateTimeUTC: '2030-01-01T00:00:00', card }));
    expect([error.kind, error.transient, error.message]).toEqual([
      'HTTP',
      false,
      'POST /payment/tokens: HTTP 400 Bad Request: card.number fails the Luhn check',
    ]);
  });

  it("reads a token's funding from its self link when asked and the answer has none (the embedded airline): a debit card is known", async () => {
    const card = {
      number: '4000056655665556',
      name: 'A B',
      address: { addressLine1: 'x', postalCode: 'y', cityName: 'z', countryCode: 'GB' },
      expirationYear: 2030,
      expirationMonth: 1,
      verificationCode: '737',
    };
    let metadata = { status: 200, body: { id: 'T2', brand: 'VISA', funding: 'debit' } as object };
    handler((req, _body, res) => {
      if (req.method === 'GET') {
        res.writeHead(metadata.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(metadata.body));
        return;
      }
      res.writeHead(201, { 'Content-Type': 'application/json', Location: '/payment/tokens/T2' });
      res.end(JSON.stringify({ id: 'T2', links: [{ rel: 'self', href: '/payment/tokens/T2' }] }));
    });
    const request = { expiryDateTimeUTC: '2030-01-01T00:00:00', card };
    // Not asked for (a booking's own token: its fee comes with the reprice): no second call.
    expect(await client.createToken(request)).toEqual({ id: 'T2' });
    expect(await client.createToken(request, {}, { funding: true })).toEqual({ id: 'T2', funding: 'debit' });
    expect(seen.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([
      'POST /pay/payment/tokens undefined',
      'POST /pay/payment/tokens undefined',
      'GET /pay/payment/tokens/T2 undefined',
    ]);
    metadata = { status: 410, body: { code: 410, description: 'Gone' } };
    expect(await client.createToken(request, {}, { funding: true })).toEqual({ id: 'T2' });
  });
});
