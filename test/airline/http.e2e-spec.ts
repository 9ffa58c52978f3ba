/**
 * Transport behaviour of the retail interface: Basic auth, media types,
 * gzip, chunked transfer, keep-alive, body limits and hostile XML. Every XML
 * answer, errors included, validates against the XSD of its root.
 */
import { Agent } from 'node:http';
import { decodeAirShoppingRs, decodeOfferPriceRs, decodeOrderViewRs } from '../../src/ndc';
import { AUTH, NDC_TYPE_UTF8, type RunningAirline, http, postXml, startAirline } from './airline-harness';
import { calendarXml, checkXml, daySearchXml, inDays } from './ndc-client';

describe('airline HTTP interface', () => {
  let airline: RunningAirline;
  const search = () => calendarXml([{ from: 'LGW', to: 'OSL', date: inDays(20) }], 1);

  beforeAll(async () => {
    airline = await startAirline({ maxBodyBytes: 64 * 1024 });
  });

  afterAll(async () => {
    await airline.close();
  });

  it('GET /health needs no credentials', async () => {
    const res = await http(`${airline.url}/health`);
    expect([res.status, JSON.parse(res.text)]).toEqual([200, { status: 'ok', airline: 'ZZ' }]);
  });

  it.each([
    ['no credentials', undefined],
    ['wrong password', `Basic ${Buffer.from('agency:wrong').toString('base64')}`],
    ['another scheme', 'Bearer abc'],
  ])('answers 401 with a Basic challenge for %s', async (_name, authorization) => {
    const headers: Record<string, string> = { 'Content-Type': NDC_TYPE_UTF8 };
    if (authorization) headers.Authorization = authorization;
    const res = await http(`${airline.url}/retail/offers`, { method: 'POST', headers, body: search() });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="ZZ NDC retail", charset="UTF-8"');
  });

  it('answers with the vendor media type, chunked, Keep-Alive timeout=60, no Content-Length', async () => {
    const res = await postXml(airline.url, '/retail/offers', search());
    expect(res.status).toBe(200);
    expect(checkXml(res)).toBe('AirShoppingRS');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['keep-alive']).toBe('timeout=60');
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('gzips when Accept-Encoding allows it', async () => {
    const plain = await postXml(airline.url, '/retail/offers', search());
    const res = await postXml(airline.url, '/retail/offers', search(), { 'Accept-Encoding': 'br;q=1, gzip;q=0.8' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.raw[0]).toBe(0x1f);
    expect(res.raw[1]).toBe(0x8b);
    expect(res.raw.length).toBeLessThan(plain.raw.length);
    checkXml(res);
    const refused = await postXml(airline.url, '/retail/offers', search(), { 'Accept-Encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('keeps the connection alive across requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ports = new Set<number>();
    agent.on('free', (socket) => ports.add(socket.localPort ?? 0));
    try {
      for (let i = 0; i < 3; i++) {
        const res = await http(`${airline.url}/retail/offers`, {
          method: 'POST',
          agent,
          headers: { Authorization: AUTH, 'Content-Type': NDC_TYPE_UTF8, Accept: NDC_TYPE_UTF8 },
          body: search(),
        });
        expect(res.status).toBe(200);
      }
      expect(ports.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('TimeStamp in local offset form with milliseconds; ids echoed from the body', async () => {
    const res = await postXml(airline.url, '/retail/offers', search());
    const rs = decodeAirShoppingRs(res.text);
    expect(rs.timeStamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);
    expect([rs.transactionIdentifier, rs.correlationId]).toEqual(['TX-0001', 'CORR-0001']);
  });

  it.each([
    ['application/xml', 'application/xml;charset=UTF-8'],
    ['text/xml', 'text/xml;charset=UTF-8'],
    ['application/xml;q=0.5, text/xml;q=0.9', 'text/xml;charset=UTF-8'],
    ['*/*', NDC_TYPE_UTF8],
    ['application/*', NDC_TYPE_UTF8],
  ])('Accept %s is answered as %s', async (accept, contentType) => {
    const res = await postXml(airline.url, '/retail/offers', search(), {
      Accept: accept,
      'Content-Type': 'application/xml',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(contentType);
  });

  it('unacceptable Accept: 406 (plain text)', async () => {
    const res = await postXml(airline.url, '/retail/offers', search(), { Accept: 'application/json' });
    expect(res.status).toBe(406);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe(
      'Not Acceptable: this resource is available as application/vnd.ndcsaga.ndc.v17.2+xml, application/xml or text/xml',
    );
  });

  it.each([
    ['application/json', '/retail/offers', 'AirShoppingRS'],
    ['application/vnd.other.ndc.v17.2+xml', '/retail/offerPrices', 'OfferPriceRS'],
    ['text/xml;charset=ISO-8859-1', '/retail/orders', 'OrderViewRS'],
  ])('unsupported Content-Type %s: 415 with an NDC error of the route', async (type, path, root) => {
    const res = await postXml(airline.url, path, search(), { 'Content-Type': type });
    expect(res.status).toBe(415);
    expect(checkXml(res)).toBe(root);
    expect(res.text).toContain('Unsupported Media Type');
  });

  it('a body over the limit: 413 with an NDC error', async () => {
    const big = search().replace('<Document', `<!-- ${'x'.repeat(70 * 1024)} --><Document`);
    const res = await postXml(airline.url, '/retail/offers', big);
    expect(res.status).toBe(413);
    expect(checkXml(res)).toBe('AirShoppingRS');
    const rs = decodeAirShoppingRs(res.text);
    expect(rs.kind === 'error' && rs.errors[0].text).toBe('Payload Too Large: the request body exceeds 65536 bytes');
  });

  const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<AirShoppingRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2" Version="17.2">&lol3;</AirShoppingRQ>`;
  const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><OfferPriceRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2">&x;</OfferPriceRQ>`;

  it.each([
    [
      '/retail/offers',
      'malformed XML',
      '<AirShoppingRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2"><Document>',
      'AirShoppingRS',
    ],
    ['/retail/offers', 'not XML at all', 'hello', 'AirShoppingRS'],
    ['/retail/offers', 'an empty body', '', 'AirShoppingRS'],
    ['/retail/offers', 'a billion laughs', billionLaughs, 'AirShoppingRS'],
    ['/retail/offerPrices', 'an external entity', xxe, 'OfferPriceRS'],
    [
      '/retail/offers',
      'the wrong root',
      '<OfferPriceRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2"/>',
      'AirShoppingRS',
    ],
    [
      '/retail/orders',
      'the wrong root',
      '<AirShoppingRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2"/>',
      'OrderViewRS',
    ],
    [
      '/retail/offers',
      'the wrong namespace',
      daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(9) }]).replace(
        'http://www.iata.org/IATA/EDIST/2017.2',
        'urn:other',
      ),
      'AirShoppingRS',
    ],
    [
      '/retail/offers',
      'deeply nested elements',
      `<AirShoppingRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2">${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</AirShoppingRQ>`,
      'AirShoppingRS',
    ],
    [
      '/retail/orders',
      'missing required data',
      '<OrderRetrieveRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2" Version="17.2"/>',
      'OrderViewRS',
    ],
  ])('%s with %s: 400 with an NDC error, never a 500', async (path, _what, body, root) => {
    const started = Date.now();
    const res = await postXml(airline.url, path, body);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(400);
    expect(checkXml(res)).toBe(root);
    const decode = {
      AirShoppingRS: decodeAirShoppingRs,
      OfferPriceRS: decodeOfferPriceRs,
      OrderViewRS: decodeOrderViewRs,
    }[root]!;
    const rs = decode(res.text);
    expect(rs.kind).toBe('error');
    if (rs.kind === 'error') {
      expect(rs.errors[0].code).toBe('701');
      expect(rs.errors[0].shortText).toBe('Invalid request');
    }
  });

  it('unknown paths are 404 JSON', async () => {
    const res = await http(`${airline.url}/retail/nothing`, { headers: { Authorization: AUTH } });
    expect([res.status, JSON.parse(res.text)]).toEqual([
      404,
      { code: 404, description: 'Not Found: Cannot GET /retail/nothing' },
    ]);
  });
});
