/**
 * "Any NDC endpoint of that dialect": the whole saga against the airline service configured as
 * another vendor (its own media type vendor and extension namespace), the client speaking SOAP 1.1,
 * both configured through the same variables an operator sets (AIRLINE_MEDIA_VENDOR,
 * AIRLINE_EXTENSION_NAMESPACE, AIRLINE_BINDING). A recording proxy between them shows what
 * travelled on the wire.
 */
import 'reflect-metadata';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AirlineStore } from '../../src/airline/store/airline.store';
import { NdcHttpClient } from '../../src/ndc-client';
import type { bookingWorkflow as BookingWorkflowFn } from '../../workflows';
import { startAirline, type RunningAirline } from '../airline/airline-harness';
import { profileFromEnv } from '../../src/ndc-client/airline-profile';
import { airlineWorker } from '../../src/worker/worker';
import { controlledBookingWorker, type ControlledWorker } from '../support/booking-worker';
import { createHarness, FIRST_TIME_TRAIL, onHarness, oneWayIntent, stepTrail, type Harness } from './booking.fixtures';

const VENDOR = 'acmeair';
const EXTENSION_NS = 'http://ndc.acmeair.example/ext/17.2';

interface Exchange {
  method: string;
  url: string;
  contentType?: string;
  soapAction?: string;
  requestBody: string;
  status: number;
  responseContentType?: string;
  responseBody: string;
}

/** Forwards every request to `target` and records both sides (identity encoding, to read them). */
function recordingProxy(target: string, exchanges: Exchange[]): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const requestBody = Buffer.concat(chunks);
      const headers = { ...req.headers, 'accept-encoding': 'identity' };
      delete headers.host;
      const upstream = http.request(`${target}${req.url}`, { method: req.method, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(parts);
          exchanges.push({
            method: req.method ?? '',
            url: req.url ?? '',
            contentType: req.headers['content-type'],
            soapAction: req.headers.soapaction as string | undefined,
            requestBody: requestBody.toString('utf8'),
            status: answer.statusCode ?? 0,
            responseContentType: answer.headers['content-type'],
            responseBody: body.toString('utf8'),
          });
          const { 'content-length': _length, 'transfer-encoding': _te, ...rest } = answer.headers;
          res.writeHead(answer.statusCode ?? 502, rest);
          res.end(body);
        });
      });
      upstream.on('error', () => res.destroy());
      upstream.end(requestBody);
    });
  });
}

describe('saga against the airline configured as another vendor, SOAP 1.1', () => {
  let harness: Harness;
  let airline: RunningAirline;
  let proxy: http.Server;
  let client: NdcHttpClient;
  let worker: ControlledWorker;
  const exchanges: Exchange[] = [];

  beforeAll(async () => {
    harness = await createHarness('saga-dialect');
    airline = await startAirline({ mediaVendor: VENDOR, extensionNamespace: EXTENSION_NS });
    proxy = recordingProxy(airline.url, exchanges);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    // The worker's own configuration path, as `npm run worker` reads it.
    const profile = profileFromEnv({
      AIRLINE_BASE_URL: proxyUrl,
      AIRLINE_USERNAME: airline.config.username,
      AIRLINE_PASSWORD: airline.config.password,
      AIRLINE_MEDIA_VENDOR: VENDOR,
      AIRLINE_EXTENSION_NAMESPACE: EXTENSION_NS,
      AIRLINE_BINDING: 'soap11',
      AIRLINE_RATE_LIMIT_RPS: '100',
    });
    client = new NdcHttpClient(profile.client);
    worker = controlledBookingWorker({ ...onHarness(harness), airlines: [airlineWorker(profile, client)] });
    await worker.start();
    // Bundling the workflows and starting the airline take a while when the whole suite runs.
  }, 180_000);

  afterAll(async () => {
    await worker?.stop();
    client?.close();
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
    await airline?.close();
    await harness?.close();
  });

  it("books a round trip with a flexible date end to end: SOAP 1.1 both ways, the vendor's namespace, one order", async () => {
    const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const result = await harness.client.workflow.execute<typeof BookingWorkflowFn>('bookingWorkflow', {
      taskQueue: harness.taskQueue,
      workflowId: `${harness.taskQueue}-1`,
      args: [
        oneWayIntent({
          agency: { id: 'AG-ACME', name: 'Dialect Agency' },
          journey: {
            origin: 'LGW',
            destination: 'OSL',
            departureDate: inDays(60),
            returnDate: inDays(67),
            flexibleDays: 2,
          },
        }),
      ],
    });
    expect(result.state.error).toBeUndefined();
    expect(result.state.status).toBe('CONFIRMED');
    expect(stepTrail(result.state)).toEqual(['calendar:ok:1', ...FIRST_TIME_TRAIL]);
    // The state keeps the NDC document itself.
    expect(result.orderViewXml).toMatch(/^<OrderViewRS[\s>]/);
    expect(result.orderViewXml).toContain(result.state.order!.bookingReference);
    const store = airline.app.get(AirlineStore);
    expect(store.ordersByShoppingResponse(result.state.chosenOffer!.shoppingResponseId)).toHaveLength(1);

    const ndc = exchanges.filter((e) => e.url.startsWith('/retail/') && e.method === 'POST');
    expect(ndc.map((e) => e.soapAction)).toEqual([
      '"AirShoppingRQ"',
      '"AirShoppingRQ"',
      '"OfferPriceRQ"',
      '"OfferPriceRQ"',
      '"OrderCreateRQ"',
      '"OrderRetrieveRQ"',
    ]);
    for (const e of ndc) {
      expect(e.contentType).toBe('text/xml; charset=utf-8');
      expect(e.requestBody).toContain(
        '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>',
      );
      expect(e.status).toBe(200);
      // Answered in the binding asked in, with the vendor's extension namespace only.
      expect(e.responseContentType).toMatch(/^text\/xml/);
      expect(e.responseBody).toMatch(/<([A-Za-z0-9]+:)?Envelope[^>]*http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\//);
      expect(e.responseBody).not.toContain('ndc-saga.dev');
    }
    // The shopping answers carry extension elements (city metadata) in the vendor's namespace.
    expect(ndc.filter((e) => e.responseBody.includes(EXTENSION_NS)).length).toBeGreaterThan(0);
  });
});
