import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTH, type RunningAirline, http, postJson, startAirline, tokenRequest } from './airline-harness';

describe('airline payment tokens (POST /payment/tokens)', () => {
  let airline: RunningAirline;
  let dir: string;
  let dbPath: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'airline-tokens-'));
    dbPath = join(dir, 'airline.db');
    airline = await startAirline({ dbPath });
  });

  afterAll(async () => {
    await airline.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a token: 201, Location, {id, links: [self, charge]}', async () => {
    const res = await postJson(airline.url, '/payment/tokens', tokenRequest('4111111111111111'));
    expect(res.status).toBe(201);
    const body = JSON.parse(res.text) as { id: string; links: { rel: string; href: string }[] };
    expect(body.id).toMatch(/^tok_[a-z2-7]{26}$/);
    const self = `${airline.url}/payment/tokens/${body.id}`;
    expect(res.headers.location).toBe(self);
    expect(body.links).toEqual([
      { rel: 'self', href: self },
      { rel: 'charge', href: `${self}/charges` },
    ]);
    expect(Object.keys(body).sort()).toEqual(['id', 'links']);
    expect(res.text).not.toContain('4111111111111111');
    // The CVV as a value or a field; the token id and the port may hold the digits 737 by chance.
    expect(res.text).not.toMatch(/"737"|verification|cvv/i);
  });

  it('the self link shows non-sensitive metadata only', async () => {
    const now = new Date();
    const req = tokenRequest('4000056655665556', now);
    const created = JSON.parse((await postJson(airline.url, '/payment/tokens', req)).text) as { id: string };
    const res = await http(`${airline.url}/payment/tokens/${created.id}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      id: created.id,
      brand: 'VISA',
      maskedNumber: '400005******5556',
      expiresAt: `${req.expiryDateTimeUTC}Z`,
      funding: 'debit',
    });
  });

  it('classifies the test cards by the BIN table', async () => {
    const cases: [string, string, string][] = [
      ['4111111111111111', 'VISA', 'credit'],
      ['5555555555554444', 'MASTERCARD', 'credit'],
      ['4000056655665556', 'VISA', 'debit'],
    ];
    for (const [number, brand, funding] of cases) {
      const { id } = JSON.parse((await postJson(airline.url, '/payment/tokens', tokenRequest(number))).text) as {
        id: string;
      };
      const info = JSON.parse((await http(`${airline.url}/payment/tokens/${id}`)).text) as Record<string, string>;
      expect([info.brand, info.funding]).toEqual([brand, funding]);
    }
  });

  it('the charge link is refused to clients with 403', async () => {
    const { id } = JSON.parse(
      (await postJson(airline.url, '/payment/tokens', tokenRequest('4111111111111111'))).text,
    ) as { id: string };
    const res = await http(`${airline.url}/payment/tokens/${id}/charges`, { method: 'POST' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toEqual({
      code: 403,
      description: 'Forbidden: clients must not charge tokens; the airline charges the card when the order is created',
    });
  });

  it('unknown token ids are 404', async () => {
    const res = await http(`${airline.url}/payment/tokens/tok_aaaaaaaaaaaaaaaaaaaaaaaaaa`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({ code: 404, description: 'Not Found: no such token' });
  });

  const invalid: [string, (b: ReturnType<typeof tokenRequest>) => unknown, string][] = [
    [
      'a number failing Luhn',
      (b) => ({ ...b, card: { ...b.card, number: '4111111111111112' } }),
      'card.number is not a valid card number',
    ],
    [
      'a too short number',
      (b) => ({ ...b, card: { ...b.card, number: '41111111' } }),
      'card.number must be 12 to 19 digits',
    ],
    [
      'a number with spaces',
      (b) => ({ ...b, card: { ...b.card, number: '4111 1111 1111 1111' } }),
      'card.number must be 12 to 19 digits',
    ],
    ['a missing name', (b) => ({ ...b, card: { ...b.card, name: undefined } }), 'card.name is required'],
    ['a missing card', (b) => ({ expiryDateTimeUTC: b.expiryDateTimeUTC }), 'card is required'],
    [
      'a missing address line',
      (b) => ({ ...b, card: { ...b.card, address: { ...b.card.address, addressLine1: '' } } }),
      'card.address.addressLine1 is required',
    ],
    [
      'a missing postal code',
      (b) => ({ ...b, card: { ...b.card, address: { ...b.card.address, postalCode: undefined } } }),
      'card.address.postalCode is required',
    ],
    [
      'a missing city',
      (b) => ({ ...b, card: { ...b.card, address: { ...b.card.address, cityName: undefined } } }),
      'card.address.cityName is required',
    ],
    [
      'a 3-letter country',
      (b) => ({ ...b, card: { ...b.card, address: { ...b.card.address, countryCode: 'GBR' } } }),
      'card.address.countryCode must be a 2-letter ISO country code',
    ],
    [
      'a string expiry year',
      (b) => ({ ...b, card: { ...b.card, expirationYear: '2030' } }),
      'card.expirationYear must be a number',
    ],
    ['month 13', (b) => ({ ...b, card: { ...b.card, expirationMonth: 13 } }), 'card.expirationMonth must be 1 to 12'],
    [
      'an expired card',
      (b) => ({ ...b, card: { ...b.card, expirationYear: 2020, expirationMonth: 1 } }),
      'card is expired',
    ],
    [
      'a 2-digit CVV',
      (b) => ({ ...b, card: { ...b.card, verificationCode: '12' } }),
      'card.verificationCode must be 3 or 4 digits',
    ],
    [
      'a missing CVV',
      (b) => ({ ...b, card: { ...b.card, verificationCode: undefined } }),
      'card.verificationCode is required',
    ],
    ['a missing expiry', (b) => ({ card: b.card }), 'expiryDateTimeUTC is required'],
    [
      'an expiry with a zone',
      (b) => ({ ...b, expiryDateTimeUTC: `${b.expiryDateTimeUTC}Z` }),
      'expiryDateTimeUTC must be a UTC date-time YYYY-MM-DDThh:mm:ss',
    ],
    [
      'an expiry on 31 February',
      (b) => ({ ...b, expiryDateTimeUTC: '2030-02-31T10:00:00' }),
      'expiryDateTimeUTC must be a UTC date-time YYYY-MM-DDThh:mm:ss',
    ],
    [
      'an expiry in the past',
      (b) => ({ ...b, expiryDateTimeUTC: '2020-01-01T00:00:00' }),
      'expiryDateTimeUTC must be in the future',
    ],
  ];

  it.each(invalid)('refuses %s with 400 and the reason', async (_name, mutate, reason) => {
    const res = await postJson(airline.url, '/payment/tokens', mutate(tokenRequest('4111111111111111')));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ code: 400, description: `Bad Request: ${reason}` });
    expect(res.text).not.toContain('4111111111111111');
  });

  it.each([
    [400, 'application/json', '{"card":', 'Bad Request: the body is not valid JSON'],
    [415, 'text/xml', '<a/>', 'Unsupported Media Type: send application/json'],
  ])('answers %i to a body sent as %s (%s)', async (code, contentType, body, description) => {
    const res = await http(`${airline.url}/payment/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': contentType },
      body,
    });
    expect([res.status, JSON.parse(res.text)]).toEqual([code, { code, description }]);
  });

  it('never stores the card number or the CVV in clear (database file bytes)', async () => {
    const number = '5555555555554444';
    const body = tokenRequest(number);
    body.card.verificationCode = '9173';
    const res = await postJson(airline.url, '/payment/tokens', body);
    expect(res.status).toBe(201);
    // Close and reopen so every page is flushed to the file.
    await airline.close();
    const bytes = readFileSync(dbPath);
    expect(bytes.includes(Buffer.from(number))).toBe(false);
    expect(bytes.includes(Buffer.from('9173'))).toBe(false);
    expect(bytes.includes(Buffer.from('555555******4444'))).toBe(true);
    airline = await startAirline({ dbPath });
    // The token survives the restart.
    const { id } = JSON.parse(res.text) as { id: string };
    expect((await http(`${airline.url}/payment/tokens/${id}`)).status).toBe(200);
  });

  it('an expired token answers 410 on its self link', async () => {
    let now = new Date();
    const clocked = await startAirline({}, { clock: { now: () => now } });
    try {
      const { id } = JSON.parse(
        (await postJson(clocked.url, '/payment/tokens', tokenRequest('4111111111111111', now))).text,
      ) as { id: string };
      now = new Date(now.getTime() + 25 * 3600_000);
      const res = await http(`${clocked.url}/payment/tokens/${id}`);
      expect([res.status, JSON.parse(res.text)]).toEqual([
        410,
        { code: 410, description: 'Gone: the token has expired' },
      ]);
    } finally {
      await clocked.close();
    }
  });

  it('never logs token request bodies, even at the most verbose log level', async () => {
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) =>
      jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
    const out = capture(process.stdout);
    const err = capture(process.stderr);
    try {
      const verbose = await startAirline({ logLevels: ['log', 'error', 'warn', 'debug', 'verbose', 'fatal'] });
      try {
        const body = tokenRequest('4111111111111111');
        body.card.verificationCode = '9358';
        expect((await postJson(verbose.url, '/payment/tokens', body)).status).toBe(201);
        body.card.number = '4111111111111112';
        expect((await postJson(verbose.url, '/payment/tokens', body)).status).toBe(400);
        await postJson(
          verbose.url,
          '/_sim/faults',
          { operation: 'Token', mode: 'http500', count: 1 },
          { Authorization: AUTH },
        );
        expect((await postJson(verbose.url, '/payment/tokens', tokenRequest('4111111111111111'))).status).toBe(500);
      } finally {
        await verbose.close();
      }
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(written.join('')).toContain('Nest');
    expect(written.join('')).not.toMatch(/411111111111111|9358/);
  });
});
