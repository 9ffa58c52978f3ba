import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { AUTH, NDC_TYPE_UTF8, type RunningAirline, postXml, startAirline } from '../../../test/airline/airline-harness';
import { ONE_ADULT, daySearchXml, inDays } from '../../../test/airline/ndc-client';
import { AirlineStore } from '../store/airline.store';
import { parseShoppingAlias } from '../store/shopping-alias';
import { ShoppingCache, compileHead, fillHead, patchHeader, sentinelHeader } from './shopping-cache';

describe('compiled head', () => {
  const h = sentinelHeader();
  const xml = `<?xml version="1.0"?><R Version="17.2" TimeStamp="${h.timeStamp}" TransactionIdentifier="${h.transactionIdentifier}" CorrelationID="${h.correlationId}" Target="Test"><X>${h.timeStamp}</X></R>`;

  it.each([
    { timeStamp: '2026-11-21T07:00:00.123+01:00', transactionIdentifier: 'T1', correlationId: 'C1' },
    { timeStamp: 'TS', transactionIdentifier: 'a&b"<c' },
    { timeStamp: 'TS', correlationId: 'only-corr' },
    { timeStamp: 'TS' },
  ])('fills in the same text as patchHeader (%o)', (ids) => {
    const header = { target: 'Test' as const, version: '17.2', ...ids };
    const filled = fillHead(compileHead(xml)!, header);
    expect(filled).toBe(patchHeader(xml, header));
  });

  it('writes exactly the echoed attributes, escaped, and leaves later placeholders alone', () => {
    const header = { target: 'Test' as const, version: '17.2', timeStamp: 'TS', transactionIdentifier: 'a&b"<c' };
    expect(fillHead(compileHead(xml)!, header)).toBe(
      `<?xml version="1.0"?><R Version="17.2" TimeStamp="TS" TransactionIdentifier="a&amp;b&quot;&lt;c" Target="Test"><X>${h.timeStamp}</X></R>`,
    );
  });

  it('is undefined when an attribute is not written as name="placeholder"', () => {
    expect(compileHead(`<R TimeStamp="${h.timeStamp}" TransactionIdentifier='${h.transactionIdentifier}' CorrelationID="${h.correlationId}"/>`)).toBeUndefined();
  });
});

describe('ShoppingCache.request', () => {
  it('keys a request without its volatile root attributes and reads the ids to echo from the root tag', () => {
    const cache = new ShoppingCache({} as AirlineStore, { now: () => new Date() });
    const body = (ts: string, tx: string) =>
      `<?xml version="1.0"?><AirShoppingRQ Version="17.2" TimeStamp="${ts}" TransactionIdentifier="${tx}" CorrelationID='c&amp;1'><X TransactionIdentifier="inner"/></AirShoppingRQ>`;
    const a = cache.request(body('2026-11-21T06:00:00Z', 'T1'))!;
    const b = cache.request(body('2026-11-21T06:00:01Z', 'T2'))!;
    expect(a.key).toBe(b.key);
    expect(a.key).toBe('=<?xml version="1.0"?><AirShoppingRQ Version="17.2"><X TransactionIdentifier="inner"/></AirShoppingRQ>');
    expect([a.echo, b.echo]).toEqual([
      { transactionIdentifier: 'T1', correlationId: 'c&1' },
      { transactionIdentifier: 'T2', correlationId: 'c&1' },
    ]);
    expect(cache.request('<Other/>')).toBeUndefined();
  });

  it('never takes text inside an attribute value for an attribute', () => {
    const cache = new ShoppingCache({} as AirlineStore, { now: () => new Date() });
    const body = (alt: string) => `<AirShoppingRQ AltLangID="${alt}" Version="17.2" TransactionIdentifier="T1"><X/></AirShoppingRQ>`;
    const tricky = cache.request(body(" TransactionIdentifier='forged'"))!;
    expect(tricky.echo).toEqual({ transactionIdentifier: 'T1' });
    expect(tricky.key).toBe(`=<AirShoppingRQ AltLangID=" TransactionIdentifier='forged'" Version="17.2"><X/></AirShoppingRQ>`);
    expect(cache.request(body(''))!.key).not.toBe(tricky.key);
  });
});

describe('ShoppingCache.lookup buffers', () => {
  it('an answer not yet released is never reused; a released one is, patched afresh', () => {
    const store = new AirlineStore(':memory:');
    const t = Date.parse('2026-11-21T06:00:00.000Z');
    const cache = new ShoppingCache(store, { now: () => new Date(t) });
    store.saveShopping({ responseId: 'SRBASE', agencyId: 'A', createdAt: '2026-11-21T06:00:00.000Z', expiresAt: '2026-11-21T06:30:00.000Z', currency: 'GBP', passengers: [], offers: {} });
    const h = sentinelHeader();
    const xml = `<R TimeStamp="${h.timeStamp}" TransactionIdentifier="${h.transactionIdentifier}" CorrelationID="${h.correlationId}"><ResponseID>SRBASE</ResponseID><O id="SRBASE-O1"/></R>`;
    cache.remember('k', { kind: 'day', shoppingResponseId: 'SRBASE' } as Parameters<ShoppingCache['remember']>[1], xml);
    const header = (tx: string) => ({ target: 'Test' as const, version: '17.2', timeStamp: 'TS', transactionIdentifier: tx });
    const a = cache.lookup('k', header('A'))!;
    const textA = a.body.toString('utf8');
    expect(textA).toMatch(/^<R TimeStamp="TS" TransactionIdentifier="A"><ResponseID>(SRBASEK[0-9A-F]{15})<\/ResponseID><O id="\1-O1"\/><\/R>$/);
    const idA = /<ResponseID>(\w+)</.exec(textA)![1];
    expect(parseShoppingAlias(idA)).toEqual({ baseId: 'SRBASE', issuedAtMs: Date.parse('2026-11-21T06:00:00.000Z') });
    expect(store.getShopping(idA)).toMatchObject({ responseId: idA, agencyId: 'A', createdAt: '2026-11-21T06:00:00.000Z', expiresAt: '2026-11-21T06:30:00.000Z' });
    const b = cache.lookup('k', header('BB'))!;
    expect(b.body.buffer).not.toBe(a.body.buffer);
    expect(a.body.toString('utf8')).toBe(textA);
    a.release!();
    a.release!();
    const c = cache.lookup('k', header('C'))!;
    const d = cache.lookup('k', header('D'))!;
    expect(c.body.buffer).toBe(a.body.buffer);
    expect(d.body.buffer).not.toBe(a.body.buffer);
    expect(c.body.toString('utf8')).toMatch(/^<R TimeStamp="TS" TransactionIdentifier="C"><ResponseID>(SRBASEK[0-9A-F]{15})<\/ResponseID><O id="\1-O1"\/><\/R>$/);
    const ids = [b, c, d].map((x) => /<ResponseID>(\w+)</.exec(x.body.toString('utf8'))![1]);
    expect(new Set([idA, ...ids]).size).toBe(4);
    expect(b.body.toString('utf8')).toContain('TransactionIdentifier="BB"');
    store.close();
  });
});

describe('ShoppingCache keys', () => {
  it('keeps searches whose keys differ in one character apart, and misses an unknown key', () => {
    const store = new AirlineStore(':memory:');
    const cache = new ShoppingCache(store, { now: () => new Date('2026-11-21T06:00:00.000Z') });
    const h = sentinelHeader();
    const calendar = (n: string) => `<R TimeStamp="${h.timeStamp}" TransactionIdentifier="${h.transactionIdentifier}" CorrelationID="${h.correlationId}"><N>${n}</N></R>`;
    const rs = { kind: 'calendar' } as Parameters<ShoppingCache['remember']>[1];
    cache.remember('=<Q date="2026-12-21"/>', rs, calendar('21'));
    cache.remember('=<Q date="2026-12-22"/>', rs, calendar('22'));
    const header = { target: 'Test' as const, version: '17.2', timeStamp: 'TS' };
    expect(cache.lookup('=<Q date="2026-12-21"/>', header)?.body.toString()).toBe('<R TimeStamp="TS"><N>21</N></R>');
    expect(cache.lookup('=<Q date="2026-12-22"/>', header)?.body.toString()).toBe('<R TimeStamp="TS"><N>22</N></R>');
    expect(cache.lookup('=<Q date="2026-12-23"/>', header)).toBeUndefined();
    store.close();
  });
});

describe('ShoppingCache lifetime', () => {
  it('serves a remembered search within 30 s, but never across midnight UTC or after a seat sale', () => {
    const store = new AirlineStore(':memory:');
    let t = Date.parse('2026-11-21T23:59:50.000Z');
    const cache = new ShoppingCache(store, { now: () => new Date(t) });
    store.saveShopping({ responseId: 'SRBASE', agencyId: 'A', createdAt: '2026-11-21T23:59:50.000Z', expiresAt: '2026-11-22T00:29:50.000Z', currency: 'GBP', passengers: [], offers: {} });
    const h = sentinelHeader();
    const xml = `<R TimeStamp="${h.timeStamp}"><ResponseID>SRBASE</ResponseID></R>`;
    const rs = { kind: 'day', shoppingResponseId: 'SRBASE' } as Parameters<ShoppingCache['remember']>[1];
    const header = { target: 'Test' as const, version: '17.2', timeStamp: 'TS' };
    cache.remember('k', rs, xml);
    t += 9_999;
    expect(cache.lookup('k', header)).toBeDefined();
    t += 1;
    expect(cache.lookup('k', header)).toBeUndefined();
    cache.remember('k', rs, xml);
    t += 29_999;
    expect(cache.lookup('k', header)).toBeDefined();
    t += 1;
    expect(cache.lookup('k', header)).toBeUndefined();
    cache.remember('k', rs, xml);
    store.sellAll([{ inventoryKey: 'K', rbd: 'Y', seats: 1 }], () => 9);
    expect(cache.lookup('k', header)).toBeUndefined();
    store.close();
  });
});

describe('pooled cached answers under concurrency', () => {
  let airline: RunningAirline;
  const search = daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(32) }, { from: 'OSL', to: 'LGW', date: inDays(39) }], ONE_ADULT);

  beforeAll(async () => {
    airline = await startAirline();
  });

  afterAll(async () => {
    await airline.close();
  });

  it('every answer carries its own id and header throughout, also when clients read slowly', async () => {
    const first = await postXml(airline.url, '/retail/offers', search);
    const firstId = /<ResponseID>(SR[0-9A-F]+(?:K[0-9A-F]{15})?)<\/ResponseID>/.exec(first.text)![1];
    const expected = first.text.split(firstId).join('RID').replace(/TimeStamp="[^"]*"/, 'TimeStamp="T"');
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const hitsBefore = airline.app.get(ShoppingCache).hits;
    try {
      const answers = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          slowPost(airline.url, search.replace('TransactionIdentifier="TX-0001"', `TransactionIdentifier="TX-${i}"`), agent, i % 3 === 0, i % 5 === 0),
        ),
      );
      expect(airline.app.get(ShoppingCache).hits).toBe(hitsBefore + 120);
      const ids = new Set<string>();
      answers.forEach((text, i) => {
        const id = /<ResponseID>(SR[0-9A-F]+(?:K[0-9A-F]{15})?)<\/ResponseID>/.exec(text)![1];
        ids.add(id);
        expect(text).toContain(`TransactionIdentifier="TX-${i}"`);
        expect(text.split(id).join('RID').replace(/TimeStamp="[^"]*"/, 'TimeStamp="T"').replace(`TX-${i}"`, 'TX-0001"')).toBe(expected);
      });
      expect(ids.size).toBe(120);
    } finally {
      agent.destroy();
    }
  });

  it('pipelined requests (answers queued behind each other) each get their own id and header', async () => {
    const first = (await postXml(airline.url, '/retail/offers', search)).text;
    const occurrences = first.split(/<ResponseID>(SR[0-9A-F]+(?:K[0-9A-F]{15})?)<\/ResponseID>/.exec(first)![1]).length;
    const n = 24;
    const raw = Buffer.concat(
      Array.from({ length: n }, (_, i) => {
        const body = Buffer.from(search.replace('TransactionIdentifier="TX-0001"', `TransactionIdentifier="TX-P${i}"`));
        const head =
          `POST /retail/offers HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: ${NDC_TYPE_UTF8}\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`;
        return Buffer.concat([Buffer.from(head), body]);
      }),
    );
    const texts = dechunkAll(await pipelined(new URL(airline.url).port, raw, n));
    expect(texts).toHaveLength(n);
    const ids = new Set<string>();
    texts.forEach((text, i) => {
      const id = /<ResponseID>(SR[0-9A-F]+(?:K[0-9A-F]{15})?)<\/ResponseID>/.exec(text)![1];
      ids.add(id);
      expect(text).toContain(`TransactionIdentifier="TX-P${i}"`);
      expect(text.split(id).length).toBe(occurrences);
      expect(text.match(/SR[0-9A-F]{20}(?:K[0-9A-F]{15})?/g)!.every((x) => x === id)).toBe(true);
    });
    expect(ids.size).toBe(n);
  });
});

/** Writes `raw` at once and collects the bytes of `n` chunked answers. */
function pipelined(port: string, raw: Buffer, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    let ends = 0;
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      ends += c.toString('latin1').split('\r\n0\r\n\r\n').length - 1;
      if (ends >= n) {
        socket.destroy();
        resolve(Buffer.concat(chunks));
      }
    });
    socket.on('error', reject);
    socket.write(raw);
  });
}

/** Bodies of consecutive chunked HTTP answers. */
function dechunkAll(all: Buffer): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < all.length) {
    i = all.indexOf('\r\n\r\n', i) + 4;
    const parts: Buffer[] = [];
    for (;;) {
      const nl = all.indexOf('\r\n', i);
      const size = parseInt(all.toString('latin1', i, nl), 16);
      i = nl + 2;
      if (size === 0) {
        i += 2;
        break;
      }
      parts.push(all.subarray(i, i + size));
      i += size + 2;
    }
    out.push(Buffer.concat(parts).toString('utf8'));
  }
  return out;
}

/** POSTs `xml`; with `slow` the response is read only after a pause (the server's writes back up). */
function slowPost(base: string, xml: string, agent: Agent, slow: boolean, gzip: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: AUTH, 'Content-Type': NDC_TYPE_UTF8, Accept: NDC_TYPE_UTF8 };
    if (gzip) headers['Accept-Encoding'] = 'gzip';
    const req = request(`${base}/retail/offers`, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      const read = () => {
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve((res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'));
        });
        res.resume();
      };
      if (slow) {
        res.pause();
        setImmediate(read);
      } else read();
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(xml);
  });
}
