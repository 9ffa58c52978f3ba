import { Writable } from 'node:stream';
import { createLogger } from '../../common/observability';
import { openApiComponentSchemas } from '../openapi';
import {
  validateAddServices,
  validateCancel,
  validateCancelQuote,
  validateChangeOffers,
  validateChangeTrip,
  validatePayBooking,
} from './servicing.dto';

const TODAY = '2026-11-21';
const NUMBER = '4111111111111111';
const CVV = '737';
const CARD = {
  number: NUMBER,
  name: 'ADA LOVELACE',
  expirationYear: 2029,
  expirationMonth: 12,
  verificationCode: CVV,
  address: { addressLine1: '1 Test Street', postalCode: 'SW1A 1AA', cityName: 'London', countryCode: 'GB' },
};

describe('servicing request bodies', () => {
  it('become the arguments of their updates: the card as `card`, empty lists left out', () => {
    expect(validatePayBooking({ card: CARD }, TODAY)).toEqual({ ok: true, value: { card: CARD } });
    expect(
      validateChangeOffers(
        { journey: { departureDate: '2026-12-01', returnDate: '2026-12-08' }, priceClass: 'FLEX' },
        TODAY,
      ),
    ).toEqual({
      ok: true,
      value: { journey: { departureDate: '2026-12-01', returnDate: '2026-12-08' }, priceClass: 'FLEX' },
    });
    expect(validateChangeTrip({ offerId: 'RO-1', payment: { card: CARD }, maxDifference: '-5.00' }, TODAY)).toEqual({
      ok: true,
      value: { offerId: 'RO-1', card: CARD, maxDifference: '-5.00' },
    });
    expect(validateChangeTrip({ offerId: 'RO-1' }, TODAY)).toEqual({ ok: true, value: { offerId: 'RO-1' } });
    const bags = [{ passenger: 1, code: 'YN2', direction: 'both' }];
    expect(validateAddServices({ bags, seats: [] }, TODAY)).toEqual({ ok: true, value: { bags } });
    expect(
      validateAddServices({ seats: [{ passenger: 0, seat: '12A', segment: 'S1' }], payment: { card: CARD } }, TODAY),
    ).toEqual({
      ok: true,
      value: { seats: [{ passenger: 0, seat: '12A', segment: 'S1' }], card: CARD },
    });
    expect(validateCancelQuote(undefined)).toEqual({ ok: true, value: {} });
    expect(validateCancel({ passengers: [1, 2], reason: ' ill ' })).toEqual({
      ok: true,
      value: { passengers: [1, 2], reason: 'ill' },
    });
  });

  it('a card expired before this month is refused at its path, in every body that carries one', () => {
    const expired = { ...CARD, expirationYear: 2026, expirationMonth: 10 };
    const path = (result: { ok: boolean; fields?: { path: string }[] }) => result.fields?.map((f) => f.path);
    expect(path(validatePayBooking({ card: expired }, TODAY))).toEqual(['card.expirationMonth']);
    expect(path(validateChangeTrip({ offerId: 'x', payment: { card: expired } }, TODAY))).toEqual([
      'payment.card.expirationMonth',
    ]);
    expect(
      path(validateAddServices({ seats: [{ passenger: 0, seat: '1A' }], payment: { card: expired } }, TODAY)),
    ).toEqual(['payment.card.expirationMonth']);
    // This month still pays.
    expect(validatePayBooking({ card: { ...CARD, expirationYear: 2026, expirationMonth: 11 } }, TODAY).ok).toBe(true);
  });

  it('card data in a servicing body or update argument is redacted by the logger, as the intent is', () => {
    const lines: string[] = [];
    const logger = createLogger({
      service: 'api',
      level: 'trace',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    const bodies = [
      { card: CARD },
      { offerId: 'RO-1', payment: { card: CARD } },
      { bags: [{ passenger: 0, code: 'YN1', direction: 'outbound' }], payment: { card: CARD } },
    ];
    const args = [
      validatePayBooking(bodies[0], TODAY),
      validateChangeTrip(bodies[1], TODAY),
      validateAddServices(bodies[2], TODAY),
    ].map((r) => (r.ok ? r.value : r.fields));
    for (const body of [...bodies, ...args]) logger.info({ body }, 'servicing request');
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      expect(line).not.toContain(NUMBER);
      expect(line).not.toMatch(new RegExp(`[^0-9a-f]${CVV}[^0-9a-f]`, 'i'));
      expect(line).toContain('"number":"[Redacted]"');
    }
  });

  it('the OpenAPI components are the validating schemas', () => {
    const schemas = openApiComponentSchemas() as Record<string, any>;
    expect(schemas.PayBooking.required).toEqual(['card']);
    expect(schemas.PayBooking.properties.card.required).toEqual(
      expect.arrayContaining(['number', 'verificationCode', 'expirationYear']),
    );
    expect(schemas.ChangeOffersRequest.required).toEqual(['journey']);
    expect(schemas.ChangeTrip.required).toEqual(['offerId']);
    expect(Object.keys(schemas.ChangeTrip.properties)).toEqual(['offerId', 'payment', 'maxDifference']);
    expect(Object.keys(schemas.AddServices.properties)).toEqual(['bags', 'seats', 'payment']);
    expect(Object.keys(schemas.CancelRequest.properties)).toEqual(['passengers', 'reason']);
    expect(schemas.ChangeOffers.properties.offers.items.required).toEqual([
      'id',
      'journey',
      'flights',
      'total',
      'difference',
      'penalty',
      'expiresAt',
    ]);
    expect(schemas.RefundQuote.required).toEqual(['refund', 'penalty', 'passengers']);
    expect(Object.keys(schemas.ServicingAnswer.properties)).toEqual(
      expect.arrayContaining(['payment', 'flights', 'changes', 'servicing', 'serviceableUntil', 'refund', 'links']),
    );
  });
});
