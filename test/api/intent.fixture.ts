/** Valid booking intents for API tests (unit and e2e). Test cards only. */
import type { CardIntent } from '../../src/booking/booking.model';

/** Visa test card with a surcharge (credit). */
export const CREDIT_CARD = '4111111111111111';
/** Mastercard test card with a surcharge (credit). */
export const CREDIT_CARD_2 = '5555555555554444';
/** Visa debit test card: no surcharge. */
export const DEBIT_CARD = '4000056655665556';
/** CVV used by every test intent (scanned for by the leak check). */
export const TEST_CVV = '737';

/**
 * A CVV as a leak in log lines would show it: not inside a longer run of hex digits (ids), nor
 * after `.` or `:` (a timestamp's milliseconds, `"durationMs":737`), where the same digits turn up
 * by chance.
 */
export function cvvLeak(cvv: string): RegExp {
  return new RegExp(`(^|[^0-9a-f.:])${cvv}([^0-9a-f]|$)`, 'im');
}

/** `YYYY-MM-DD`, `days` after `from` (UTC). */
export function addDays(from: Date, days: number): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** A one-way LGW-OSL intent for one adult, departing in 30 days, paid with `card`. */
export function oneWayIntent(overrides: { agencyId?: string; card?: string; now?: Date } = {}): CardIntent {
  const now = overrides.now ?? new Date();
  return {
    agency: { id: overrides.agencyId ?? 'AGENCY1', name: 'Test Travel' },
    pointOfSale: 'GB',
    currency: 'GBP',
    language: 'EN',
    journey: { origin: 'LGW', destination: 'OSL', departureDate: addDays(now, 30) },
    passengers: [
      { type: 'ADT', title: 'MS', givenName: 'Ada', surname: 'Lovelace', birthdate: '1985-12-10', contactId: 'C1' },
    ],
    contacts: [{ id: 'C1', emails: ['ada@example.com'], phones: [{ countryDialingCode: '44', number: '2071234567' }] }],
    payment: {
      card: {
        number: overrides.card ?? CREDIT_CARD,
        name: 'ADA LOVELACE',
        expirationYear: now.getUTCFullYear() + 3,
        expirationMonth: 12,
        verificationCode: TEST_CVV,
        address: { addressLine1: '1 Test Street', postalCode: 'SW1A 1AA', cityName: 'London', countryCode: 'GB' },
      },
    },
    securePayment: {
      failUrl: 'https://agency.example.com/pay/fail',
      termUrl: 'https://agency.example.com/pay/done',
      ipAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (test)',
    },
  };
}

/** LGW-JFK round trip, ADT + CHD + INF, returning 7 days after departing. */
export function roundTripFamilyIntent(overrides: { agencyId?: string; card?: string; now?: Date } = {}): CardIntent {
  const base = oneWayIntent(overrides);
  const now = overrides.now ?? new Date();
  return {
    ...base,
    journey: { origin: 'LGW', destination: 'JFK', departureDate: addDays(now, 40), returnDate: addDays(now, 47) },
    passengers: [
      { type: 'ADT', title: 'MR', givenName: 'Tom', surname: 'Smith', birthdate: '1980-03-04', contactId: 'C1' },
      {
        type: 'CHD',
        title: 'MSTR',
        givenName: 'Ben',
        surname: 'Smith',
        birthdate: addDays(now, -8 * 365),
        contactId: 'C1',
      },
      {
        type: 'INF',
        title: 'MISS',
        givenName: 'Amy',
        surname: 'Smith',
        birthdate: addDays(now, -200),
        contactId: 'C1',
      },
    ],
  };
}
