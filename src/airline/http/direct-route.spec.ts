/**
 * `POST /retail/offers` served ahead of Express (direct-route.ts) answers
 * exactly as Nest's route does: the same requests against an app with and
 * one without direct routes give the same status, headers and body (up to
 * TimeStamp, ShoppingResponseIDs and the Date header).
 */
import { gunzipSync } from 'node:zlib';
import { type RawResponse, type RunningAirline, AUTH, NDC_TYPE_UTF8, http, startAirline } from '../../../test/airline/airline-harness';
import { ONE_ADULT, daySearchXml, inDays } from '../../../test/airline/ndc-client';
import { urlIsPath } from './direct-route';

describe('urlIsPath', () => {
  it.each([
    ['/retail/offers', true],
    ['/retail/offers?x=1', true],
    ['/retail/offers/', false],
    ['/retail/offersX', false],
    ['/Retail/offers', false],
    [undefined, false],
  ])('%s -> %s', (url, expected) => {
    expect(urlIsPath(url, '/retail/offers')).toBe(expected);
  });
});

describe('direct route of POST /retail/offers', () => {
  let direct: RunningAirline;
  let viaNest: RunningAirline;
  const search = daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(31) }, { from: 'OSL', to: 'LGW', date: inDays(38) }], ONE_ADULT);

  beforeAll(async () => {
    direct = await startAirline({ maxBodyBytes: 65536 });
    viaNest = await startAirline({ maxBodyBytes: 65536 }, { directRoutes: false });
  });

  afterAll(async () => {
    await direct.close();
    await viaNest.close();
  });

  function normalise(res: RawResponse): unknown {
    const headers = { ...res.headers };
    delete headers.date;
    const body = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.raw).toString('utf8') : res.text)
      .replace(/TimeStamp="[^"]*"/g, 'TimeStamp="T"')
      .replace(/SR[0-9A-F]{20}(?:K[0-9A-F]{15})?/g, 'SRID');
    return { status: res.status, headers, body };
  }

  const cases: [string, { method?: string; path?: string; headers?: Record<string, string>; body?: string }][] = [
    ['a search', {}],
    ['the same search again (cached)', {}],
    ['a search with gzip', { headers: { 'Accept-Encoding': 'gzip' } }],
    ['a query string', { path: '/retail/offers?x=1' }],
    ['a trailing slash', { path: '/retail/offers/' }],
    ['no credentials', { headers: { Authorization: '' } }],
    ['wrong credentials', { headers: { Authorization: `Basic ${Buffer.from('agency:nope').toString('base64')}` } }],
    ['an unacceptable Accept', { headers: { Accept: 'application/json' } }],
    ['an unsupported Content-Type', { headers: { 'Content-Type': 'application/json' } }],
    ['malformed XML', { body: '<AirShoppingRQ><oops' }],
    ['another root', { body: '<OfferPriceRQ xmlns="http://www.iata.org/IATA/EDIST/2017.2"/>' }],
    ['a body over the limit', { body: search.replace('<Document', `<!-- ${'x'.repeat(70 * 1024)} --><Document`) }],
    ['GET', { method: 'GET', body: undefined }],
  ];

  it.each(cases)('%s', async (_name, c) => {
    const send = (a: RunningAirline) => {
      const headers: Record<string, string> = { Authorization: AUTH, 'Content-Type': NDC_TYPE_UTF8, Accept: NDC_TYPE_UTF8, ...c.headers };
      if (headers.Authorization === '') delete headers.Authorization;
      return http(a.url + (c.path ?? '/retail/offers'), { method: c.method ?? 'POST', headers, body: 'body' in c ? c.body : search });
    };
    const a = await send(direct);
    const b = await send(viaNest);
    expect(normalise(a)).toEqual(normalise(b));
  });

  it('applies armed faults like the Nest route', async () => {
    for (const a of [direct, viaNest]) {
      const armed = await http(`${a.url}/_sim/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ operation: 'AirShopping', mode: 'http500', count: 1 }),
      });
      expect(armed.status).toBeLessThan(300);
    }
    const send = (a: RunningAirline) =>
      http(`${a.url}/retail/offers`, { method: 'POST', headers: { Authorization: AUTH, 'Content-Type': NDC_TYPE_UTF8 }, body: search });
    const a = await send(direct);
    expect(a.status).toBe(500);
    expect(normalise(a)).toEqual(normalise(await send(viaNest)));
  });
});
