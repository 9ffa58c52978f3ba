import { AirlineError } from '../airline.errors';
import { loadWorld } from '../world/world';
import {
  birthdatesRequired,
  chooseBuckets,
  evaluateQualifier,
  priceJourney,
  resolveCurrency,
  segmentTax,
} from './pricing';

const world = loadWorld();
const today = '2026-11-21';
const lgwOsl = world.journeys('LGW', 'OSL', '2026-12-04', today)[0]; // a Friday (x 1.15)
const economy = world.priceClass('ECONOMY')!;
const flex = world.priceClass('FLEX')!;

describe('pricing', () => {
  it('chooses the cheapest booking class with enough seats on every segment', () => {
    const sold = new Map([['ZZ101/2026-12-04|O', 3]]);
    const lookup = (k: string, r: string) => sold.get(`${k}|${r}`) ?? 0;
    expect(chooseBuckets(world, lgwOsl, economy, 1, lookup)?.map((b) => [b.rbd, b.seatsLeft])).toEqual([['O', 1]]);
    expect(chooseBuckets(world, lgwOsl, economy, 2, lookup)?.map((b) => [b.rbd, b.seatsLeft])).toEqual([['N', 8]]);
    expect(chooseBuckets(world, lgwOsl, economy, 0, lookup)?.map((b) => b.rbd)).toEqual(['O']);
    expect(chooseBuckets(world, lgwOsl, economy, 31, lookup)).toBeUndefined();
  });

  it('combines corporate and promotion discounts (corporate first), each rounded', () => {
    const { discounts, warnings } = evaluateQualifier(world, {
      promotionCodes: ['PROMO10'],
      specialFare: { airlineId: 'ZZ', account: 'CORP01' },
    });
    expect(warnings).toEqual([]);
    const [bucket] = chooseBuckets(world, lgwOsl, flex, 1, () => 0)!;
    // 159 x 1.15 = 182.85; -15 % (27.4275 -> 27.43) = 155.42; -10 % (15.542 -> 15.54) = 139.88
    expect(priceJourney(world, [bucket], flex, 'ADT', { assumedUnder16: false }, 'GBP', discounts)).toEqual({
      base: '139.88',
      taxes: '13.00',
      total: '152.88',
    });
    // Economy gets the promotion only: 49 x 1.15 = 56.35; -10 % (5.635 -> 5.64) = 50.71
    const [eco] = chooseBuckets(world, lgwOsl, economy, 1, () => 0)!;
    expect(priceJourney(world, [eco], economy, 'ADT', { assumedUnder16: false }, 'GBP', discounts).base).toBe('50.71');
  });

  it('a corporate Contract (the other branch of the XSD choice) names no account of ours: public fares and a warning', () => {
    const { discounts, warnings } = evaluateQualifier(world, {
      specialFare: { airlineId: 'ZZ', companyIndex: 'ACME', contract: 'CTR-1' },
    });
    expect(discounts).toEqual({});
    expect(warnings.map((w) => w.text)).toEqual([
      'Corporate agreement ZZ/Contract CTR-1 is not valid; public fares apply',
    ]);
  });

  it('waives the UK tax by age on the departure date, and other taxes never', () => {
    const seg = lgwOsl.segments[0];
    expect(segmentTax(world, seg, { birthdate: '2010-12-04' }, 'GBP')).toBe('13.00');
    expect(segmentTax(world, seg, { birthdate: '2010-12-05' }, 'GBP')).toBe('0.00');
    expect(segmentTax(world, seg, { assumedUnder16: true }, 'USD')).toBe('0.00');
    expect(segmentTax(world, seg, { assumedUnder16: false }, 'USD')).toBe('16.51');
    const oslSeg = world.journeys('OSL', 'LGW', '2026-12-04', today)[0].segments[0];
    expect(segmentTax(world, oslSeg, { birthdate: '2026-01-01' }, 'NOK')).toBe('87.10');
  });

  it('requires birthdates only when a child or infant departs from the UK', () => {
    const oslBcn = world.journeys('OSL', 'BCN', '2026-12-04', today)[0];
    const lgwBcn = world.journeys('LGW', 'BCN', '2026-12-04', today)[0];
    expect(birthdatesRequired(world, [lgwOsl], ['ADT', 'CHD'])).toBe(true);
    expect(birthdatesRequired(world, [lgwOsl], ['ADT', 'INF'])).toBe(true);
    expect(birthdatesRequired(world, [lgwOsl], ['ADT', 'ADT'])).toBe(false);
    expect(birthdatesRequired(world, [oslBcn], ['ADT', 'CHD'])).toBe(false);
    expect(birthdatesRequired(world, [oslBcn, lgwBcn], ['ADT', 'CHD'])).toBe(true);
  });

  it('resolves the currency from OverrideCurrency, then the point of sale, then GBP', () => {
    expect(resolveCurrency(world, 'USD', 'NO')).toBe('USD');
    expect(resolveCurrency(world, undefined, 'NO')).toBe('NOK');
    expect(resolveCurrency(world, undefined, 'ES')).toBe('EUR');
    expect(resolveCurrency(world, undefined, 'FR')).toBe('GBP');
    expect(resolveCurrency(world, undefined, undefined)).toBe('GBP');
    expect(() => resolveCurrency(world, 'SEK', undefined)).toThrow(AirlineError);
  });
});
