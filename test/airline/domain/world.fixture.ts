/**
 * In-memory fakes of the airline ports, for unit tests of the domain (and
 * usable by other specs). Not used in production code.
 */
import type {
  AirShoppingRq,
  NdcError,
  OfferPriceRq,
  Passenger,
  Qualifier,
  SelectedOffer,
} from '../../../src/ndc/ndc.model';
import { AirlineError } from '../../../src/airline/airline.errors';
import type {
  AirlineClock,
  InventoryStore,
  PricingRecord,
  ResponseStore,
  ShoppingRecord,
  SoldSegment,
  TokenInfo,
  TokenLookup,
} from '../../../src/airline/airline.ports';
import { OfferPriceService } from '../../../src/airline/offer-price/offer-price.service';
import { ShoppingService } from '../../../src/airline/shopping/shopping.service';
import { sequentialIds } from '../../../src/airline/world/ids';
import type { World } from '../../../src/airline/world/world';

/**
 * The NDC error of the AirlineError a domain call throws, which the airline answers (HTTP 200,
 * `Errors`); throws when the call succeeds or fails otherwise.
 */
export function ndcErrorOf(call: () => unknown): NdcError {
  try {
    call();
  } catch (e) {
    if (e instanceof AirlineError) return e.ndc;
    throw e;
  }
  throw new Error('expected an AirlineError, but the call succeeded');
}

export class FakeClock implements AirlineClock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(iso: string): void {
    this.current = new Date(iso);
  }
  advanceMinutes(minutes: number): void {
    this.current = new Date(this.current.getTime() + minutes * 60_000);
  }
}

export class MemoryResponseStore implements ResponseStore {
  readonly shopping = new Map<string, ShoppingRecord>();
  readonly pricing = new Map<string, PricingRecord>();
  private readonly latest = new Map<string, string>();
  saveShopping(record: ShoppingRecord): void {
    this.shopping.set(record.responseId, structuredClone(record));
  }
  getShopping(id: string): ShoppingRecord | undefined {
    const r = this.shopping.get(id);
    return r && structuredClone(r);
  }
  savePricing(record: PricingRecord): void {
    this.pricing.set(record.responseId, structuredClone(record));
    this.latest.set(record.pricedOffer.offerId, record.responseId);
  }
  getPricing(id: string): PricingRecord | undefined {
    const r = this.pricing.get(id);
    return r && structuredClone(r);
  }
  latestPricingFor(offerId: string): string | undefined {
    return this.latest.get(offerId);
  }
}

export class MemoryInventory implements InventoryStore {
  readonly counts = new Map<string, number>();
  sold(key: string, rbd: string): number {
    return this.counts.get(`${key}|${rbd}`) ?? 0;
  }
  soldOn(key: string): ReadonlyMap<string, number> {
    const prefix = `${key}|`;
    return new Map(
      [...this.counts].filter(([k]) => k.startsWith(prefix)).map(([k, n]) => [k.slice(prefix.length), n] as const),
    );
  }
  /** Test helper: marks `n` seats as sold. */
  setSold(key: string, rbd: string, n: number): void {
    this.counts.set(`${key}|${rbd}`, n);
  }
  sellAll(segments: SoldSegment[], capacity: (key: string, rbd: string) => number): boolean {
    if (segments.some((s) => this.sold(s.inventoryKey, s.rbd) + s.seats > capacity(s.inventoryKey, s.rbd)))
      return false;
    for (const s of segments) this.setSold(s.inventoryKey, s.rbd, this.sold(s.inventoryKey, s.rbd) + s.seats);
    return true;
  }
}

export class MemoryTokens implements TokenLookup {
  readonly tokens = new Map<string, TokenInfo>();
  add(token: TokenInfo): void {
    this.tokens.set(token.id, token);
  }
  getToken(id: string): TokenInfo | undefined {
    return this.tokens.get(id);
  }
}

/** ADT, ADT, CHD, INF as in the spec's examples. */
export const FAMILY: Passenger[] = [
  { passengerId: 'PAX__ADT01', ptc: 'ADT' },
  { passengerId: 'PAX__ADT02', ptc: 'ADT' },
  { passengerId: 'PAX__CHD01', ptc: 'CHD' },
  { passengerId: 'PAX__INF01', ptc: 'INF' },
];

export const AGENCY = { name: 'Test Agency', agencyId: 'AGENCY01' };

const header = {
  target: 'Test',
  version: '17.2',
  timeStamp: '2026-11-21T06:00:00Z',
  transactionIdentifier: 'TX1',
  correlationId: 'CORR1',
};

type ShoppingExtra = { currency?: string; qualifier?: Qualifier };

/** An AirShoppingRQ of the test agency for `coreQuery`, `passengers` and the optional currency and qualifier. */
function shoppingRq(
  coreQuery: AirShoppingRq['coreQuery'],
  passengers: Passenger[],
  extra: ShoppingExtra,
): AirShoppingRq {
  return {
    ...header,
    party: AGENCY,
    ...(extra.currency ? { parameters: { overrideCurrency: extra.currency } } : {}),
    ...(extra.qualifier ? { qualifier: extra.qualifier } : {}),
    coreQuery,
    passengers,
  };
}

/** A day-search AirShoppingRQ; `legs` are [from, to, date] per direction. */
export function dayRq(
  legs: [string, string, string][],
  passengers: Passenger[] = FAMILY,
  extra: ShoppingExtra = {},
): AirShoppingRq {
  const originDestinations = legs.map(([departureCode, arrivalCode, date]) => ({ departureCode, arrivalCode, date }));
  return shoppingRq({ kind: 'day', originDestinations }, passengers, extra);
}

/** A calendar AirShoppingRQ for one adult; `legs` are [from, to, date, daysBefore, daysAfter]. */
export function calendarRq(legs: [string, string, string, number, number][], extra: ShoppingExtra = {}): AirShoppingRq {
  const originDestinations = legs.map(([departureCode, arrivalCode, date, daysBefore, daysAfter]) => ({
    departureCode,
    arrivalCode,
    date,
    daysBefore,
    daysAfter,
  }));
  return shoppingRq({ kind: 'calendar', originDestinations }, [{ passengerId: 'PAX__ADT01', ptc: 'ADT' }], extra);
}

/**
 * An offer of response `responseId` (a shopping Offer or a PricedOffer) as an OfferPriceRQ selects
 * it: owner ZZ, every item with its passengers.
 */
export function selection(
  responseId: string,
  offer: { offerId: string; offerItems: { offerItemId: string; fareDetails: { passengerRefs: string[] }[] }[] },
): SelectedOffer {
  return {
    offerId: offer.offerId,
    owner: 'ZZ',
    responseId,
    offerItems: offer.offerItems.map((i) => ({
      offerItemId: i.offerItemId,
      passengerRefs: i.fareDetails[0]!.passengerRefs,
    })),
  };
}

/** An OfferPriceRQ selecting `offers` for `passengers`. */
export function offerPriceRq(
  offers: SelectedOffer[],
  passengers: Passenger[] = FAMILY,
  extra: { token?: string; qualifier?: Qualifier } = {},
): OfferPriceRq {
  return {
    ...header,
    party: AGENCY,
    offers,
    passengers,
    ...(extra.qualifier ? { qualifier: extra.qualifier } : {}),
    ...(extra.token ? { paymentForms: [{ key: 'PMT__1', token: extra.token }] } : {}),
  };
}

/**
 * Shopping and OfferPrice services over in-memory fakes, as the domain specs use them: the clock
 * at 2026-11-21T06:00:00Z, sequential ids, and two card tokens valid for an hour, `TOK-CREDIT`
 * (VISA credit, surcharged) and `TOK-DEBIT` (VISA debit).
 */
export function pricingServices(world: World) {
  const store = new MemoryResponseStore();
  const inventory = new MemoryInventory();
  const tokens = new MemoryTokens();
  const clock = new FakeClock(new Date('2026-11-21T06:00:00.000Z'));
  const ids = sequentialIds();
  const shopping = new ShoppingService(world, store, inventory, clock, ids);
  const pricing = new OfferPriceService(world, store, inventory, tokens, clock, ids);
  tokens.add({
    id: 'TOK-CREDIT',
    brand: 'VISA',
    funding: 'credit',
    maskedNumber: '411111******1111',
    expiresAt: '2026-11-21T07:00:00.000Z',
  });
  tokens.add({
    id: 'TOK-DEBIT',
    brand: 'VISA',
    funding: 'debit',
    maskedNumber: '400005******5556',
    expiresAt: '2026-11-21T07:00:00.000Z',
  });
  return { store, inventory, tokens, clock, shopping, pricing };
}
