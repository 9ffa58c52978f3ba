import { oneWayIntent, CREDIT_CARD, TEST_CVV } from '../../../test/api/intent.fixture';
import { openApiComponentSchemas } from '../openapi';
import { formatPath } from '../common/validation';
import { IntentValidator, validateBatch, validateIntent } from './booking.dto';

const NOW = new Date('2026-11-21T10:00:00Z');
const TODAY = '2026-11-21';

describe('validateIntent', () => {
  it('accepts a valid one-way intent unchanged', () => {
    const intent = oneWayIntent({ now: NOW });
    expect(validateIntent(intent, TODAY)).toEqual({ ok: true, value: intent });
  });

  it('names each bad field, with array indexes', () => {
    const intent = oneWayIntent({ now: NOW }) as any;
    intent.passengers.push({
      type: 'XYZ',
      title: 'MR',
      givenName: 'B',
      surname: 'C',
      birthdate: '2020-02-30',
      contactId: 'C1',
    });
    intent.currency = 'gbp';
    intent.selection = { maxTotal: 250.5 };
    const r = validateIntent(intent, TODAY);
    expect(r).toEqual({
      ok: false,
      fields: [
        { path: 'currency', message: 'must be an ISO 4217 currency code (3 capital letters)' },
        { path: 'passengers[1].type', message: 'must be ADT, CHD or INF' },
        { path: 'passengers[1].birthdate', message: 'must be a valid date YYYY-MM-DD' },
        { path: 'selection.maxTotal', message: 'must be a decimal string such as "250.00"' },
      ],
    });
  });

  it('validates extras: unknown codes, passengers and directions are named', () => {
    const ok = oneWayIntent({ now: NOW });
    ok.extras = {
      bags: [{ passenger: 0, code: 'YN1', direction: 'outbound' }],
      seats: { mode: 'auto', preference: 'window', together: true, maxPricePerSeat: '25.00' },
    };
    expect(validateIntent(ok, TODAY)).toEqual({ ok: true, value: ok });
    const intent = oneWayIntent({ now: NOW }) as any;
    intent.extras = {
      bags: [
        { passenger: 0, code: 'XXL', direction: 'outbound' },
        { passenger: 5, code: 'YN1', direction: 'return' },
        { passenger: 0, code: 'YN2', direction: 'sideways' },
      ],
      seats: { mode: 'pick', maxPricePerSeat: '-1' },
    };
    const r = validateIntent(intent, TODAY);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.fields.map((f) => f.path)).toEqual([
      'extras.bags[0].code',
      'extras.bags[2].direction',
      'extras.seats.mode',
      'extras.seats.maxPricePerSeat',
    ]);
    delete intent.extras.seats;
    intent.extras.bags = [{ passenger: 5, code: 'YN1', direction: 'return' }];
    const cross = validateIntent(intent, TODAY);
    expect(!cross.ok && cross.fields).toEqual([
      { path: 'extras.bags[0].passenger', message: 'must be the index of one of the 1 passengers' },
      { path: 'extras.bags[0].direction', message: 'the journey has no return' },
    ]);
  });

  it('checks cross-field rules: dates, contact references, infants', () => {
    const intent = oneWayIntent({ now: NOW }) as any;
    intent.journey.departureDate = '2026-12-10';
    intent.journey.returnDate = '2026-12-09';
    intent.passengers[0].contactId = 'NOPE';
    intent.passengers.push({
      type: 'INF',
      title: 'MISS',
      givenName: 'A',
      surname: 'B',
      birthdate: '2027-01-01',
      contactId: 'C1',
    });
    intent.passengers.push({
      type: 'INF',
      title: 'MISS',
      givenName: 'C',
      surname: 'D',
      birthdate: '2026-01-01',
      contactId: 'C1',
    });
    const r = validateIntent(intent, TODAY);
    expect(r).toEqual({
      ok: false,
      fields: [
        { path: 'journey.returnDate', message: 'must be after departureDate' },
        { path: 'passengers[0].contactId', message: 'must be the id of one of the contacts' },
        { path: 'passengers[1].birthdate', message: 'must not be in the future' },
        { path: 'passengers', message: 'must not have more INF than ADT' },
      ],
    });
  });

  it('refuses departures in the past and expired cards', () => {
    const intent = oneWayIntent({ now: NOW }) as any;
    intent.journey.departureDate = '2026-11-20';
    intent.payment.card.expirationYear = 2026;
    intent.payment.card.expirationMonth = 10;
    expect(validateIntent(intent, TODAY)).toEqual({
      ok: false,
      fields: [
        { path: 'journey.departureDate', message: 'must not be before today (2026-11-21)' },
        { path: 'payment.card.expirationMonth', message: 'card has expired' },
      ],
    });
  });

  it('rejects a bad card number and CVV without echoing them', () => {
    const intent = oneWayIntent({ now: NOW }) as any;
    intent.payment.card.number = '4111111111111112';
    intent.payment.card.verificationCode = '73x';
    const r = validateIntent(intent, TODAY);
    expect(r).toEqual({
      ok: false,
      fields: [
        { path: 'payment.card.number', message: 'is not a valid card number (Luhn check failed)' },
        { path: 'payment.card.verificationCode', message: 'must be 3 or 4 digits' },
      ],
    });
    expect(JSON.stringify(r)).not.toContain('411111111111111');
    expect(JSON.stringify(r)).not.toContain('73x');
  });

  it('accepts a pre-authenticated card (payment.card.authentication) and names bad values without echoing them', () => {
    const intent = oneWayIntent({ now: NOW });
    intent.payment.card.authentication = {
      cavv: 'AAABBJg0VhI0VniQEjRWAAAAAAA=',
      eci: '05',
      transactionId: '8a880dc0-d2d2',
    };
    expect(validateIntent(intent, TODAY)).toEqual({ ok: true, value: intent });
    const bad = structuredClone(intent) as any;
    bad.payment.card.authentication = { cavv: 'not base64!', eci: '5', transactionId: '', extra: 1 };
    const r = validateIntent(bad, TODAY);
    expect(r).toEqual({
      ok: false,
      fields: [
        { path: 'payment.card.authentication.cavv', message: 'must be 4 to 64 base64 characters' },
        { path: 'payment.card.authentication.eci', message: 'must be two digits' },
        {
          path: 'payment.card.authentication.transactionId',
          message: 'must be 1 to 64 letters, digits, dots, colons, underscores or dashes',
        },
        { path: 'payment.card.authentication', message: 'Unrecognized key: "extra"' },
      ],
    });
    expect(JSON.stringify(r)).not.toContain('not base64');
  });

  it('refuses unknown keys (typos) by name', () => {
    const intent = oneWayIntent({ now: NOW }) as any;
    intent.passengers[0].birthDate = intent.passengers[0].birthdate;
    const r = validateIntent(intent, TODAY);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.fields.map((f) => f.path)).toEqual(['passengers[0]']);
  });

  it('does not echo a non-string card number', () => {
    const intent = oneWayIntent({ now: NOW }) as any;
    intent.payment.card.number = 4111111111111111;
    const r = validateIntent(intent, TODAY);
    expect(r).toEqual({ ok: false, fields: [{ path: 'payment.card.number', message: 'must be a string of digits' }] });
    expect(JSON.stringify(r)).not.toContain(CREDIT_CARD);
    expect(JSON.stringify(r)).not.toContain(TEST_CVV);
  });

  it('takes a hold (payment.hold) instead of a card, and asks for exactly one of them', () => {
    const rest = oneWayIntent({ now: NOW });
    const hold = { ...rest, payment: { hold: true } };
    expect(validateIntent(hold, TODAY).ok).toBe(true);
    const neither = { ...rest, payment: {} };
    expect(validateIntent(neither, TODAY)).toEqual({
      ok: false,
      fields: [{ path: 'payment', message: 'give either a card or hold: true' }],
    });
    const both = oneWayIntent({ now: NOW }) as any;
    both.payment.hold = true;
    expect(validateIntent(both, TODAY)).toEqual({
      ok: false,
      fields: [{ path: 'payment', message: 'give either a card or hold: true' }],
    });
    const notTrue = { ...rest, payment: { hold: false } };
    expect(validateIntent(notTrue, TODAY)).toEqual({
      ok: false,
      fields: [{ path: 'payment.hold', message: 'must be true (or give a card)' }],
    });
  });
});

describe('validateBatch', () => {
  it('prefixes paths with the index of the intent', () => {
    const good = oneWayIntent({ now: NOW });
    const bad = oneWayIntent({ now: NOW }) as any;
    bad.journey.origin = 'lgw';
    expect(validateBatch([good, bad], TODAY)).toEqual({
      ok: false,
      fields: [{ path: '[1].journey.origin', message: 'must be an IATA airport code (3 capital letters)' }],
    });
  });

  it('reports the checks across fields of one intent beside the shape errors of another', () => {
    const wrongShape = oneWayIntent({ now: NOW }) as any;
    wrongShape.currency = 'gbp';
    const sameAirports = oneWayIntent({ now: NOW }) as any;
    sameAirports.journey.destination = sameAirports.journey.origin;
    expect(validateBatch([wrongShape, oneWayIntent({ now: NOW }), sameAirports], TODAY)).toEqual({
      ok: false,
      fields: [
        { path: '[0].currency', message: 'must be an ISO 4217 currency code (3 capital letters)' },
        { path: '[2].journey.destination', message: 'must differ from origin' },
      ],
    });
  });

  it('requires a non-empty array', () => {
    expect(validateBatch([], TODAY)).toEqual({
      ok: false,
      fields: [{ path: '(body)', message: 'must contain at least one intent' }],
    });
    expect(validateBatch({}, TODAY)).toEqual({
      ok: false,
      fields: [{ path: '(body)', message: 'must be a JSON array of booking intents' }],
    });
  });
});

describe('IntentValidator', () => {
  it('checks against the date it is given, also when one validator outlives a day', () => {
    const validator = new IntentValidator();
    const intent = oneWayIntent({ now: NOW });
    intent.journey.departureDate = '2026-11-22';
    expect(validator.intent(intent, TODAY)).toEqual({ ok: true, value: intent });
    expect(validator.batch([intent], TODAY)).toEqual({ ok: true, value: [intent] });
    expect(validator.intent(intent, '2026-11-23')).toEqual({
      ok: false,
      fields: [{ path: 'journey.departureDate', message: 'must not be before today (2026-11-23)' }],
    });
    expect(validator.batch([intent], '2026-11-23')).toEqual({
      ok: false,
      fields: [{ path: '[0].journey.departureDate', message: 'must not be before today (2026-11-23)' }],
    });
    expect(validator.intent(intent, TODAY)).toEqual({ ok: true, value: intent });
  });
});

describe('helpers', () => {
  it('formatPath', () => {
    expect(formatPath(['passengers', 1, 'birthdate'])).toBe('passengers[1].birthdate');
    expect(formatPath([2, 'journey'])).toBe('[2].journey');
  });
  it('produces a JSON schema naming the fields', () => {
    const s = openApiComponentSchemas().BookingIntent as any;
    expect(Object.keys(s.properties)).toEqual([
      'agency',
      'pointOfSale',
      'currency',
      'language',
      'journey',
      'passengers',
      'contacts',
      'selection',
      'promotionCode',
      'corporate',
      'airlines',
      'extras',
      'airlineChanges',
      'payment',
      'securePayment',
    ]);
  });
});
