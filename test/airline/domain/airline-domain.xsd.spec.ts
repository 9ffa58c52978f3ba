/**
 * The domain's responses, encoded by the NDC codec, validate against the
 * NDC 17.2 XSDs and every reference in them resolves.
 */
import { checkReferences, encodeAirShoppingRs, encodeOfferPriceRs } from '../../../src/ndc';
import type { OfferPriceRs } from '../../../src/ndc/ndc.model';
import { expectValidXsd } from '../../support/xsd';
import { loadWorld } from '../../../src/airline/world/world';
import { calendarRq, dayRq, FAMILY, ndcErrorOf, offerPriceRq, pricingServices, selection } from './world.fixture';

const world = loadWorld();

describe('airline domain responses against the NDC 17.2 XSDs', () => {
  const { shopping, pricing } = pricingServices(world);

  it('calendar round trip, with a transfer journey, and a warning', () => {
    const rs = shopping.shop(
      calendarRq(
        [
          ['LGW', 'BCN', '2026-12-02', 3, 3],
          ['BCN', 'LGW', '2026-12-09', 3, 3],
        ],
        { qualifier: { promotionCodes: ['NOPE'] } },
      ),
    );
    expect(rs.kind).toBe('calendar');
    expect(checkReferences(rs)).toEqual([]);
    expectValidXsd(encodeAirShoppingRs(rs), 'AirShoppingRS');
  });

  it('day round trip with ADT, ADT, CHD, INF, then OfferPrice with birthdates and a credit card token', () => {
    const rs = shopping.shop(
      dayRq([
        ['LGW', 'BCN', '2026-12-01'],
        ['BCN', 'LGW', '2026-12-08'],
      ]),
    );
    if (rs.kind !== 'day') throw new Error(JSON.stringify(rs));
    expect(checkReferences(rs)).toEqual([]);
    expectValidXsd(encodeAirShoppingRs(rs), 'AirShoppingRS');

    const offers = rs.airlineOffers[0].offers;
    const pick = (od: string) =>
      offers.find((o) => o.flightsOverview[0].odRef === od && o.flightsOverview[0].priceClassRef === 'PC__PLUS')!;
    const selected = [pick('OD__LGW_BCN'), pick('OD__BCN_LGW')].map((o) => selection(rs.shoppingResponseId, o));
    const births: Record<string, string> = {
      PAX__ADT01: '1980-01-01',
      PAX__ADT02: '1982-02-02',
      PAX__CHD01: '2016-05-05',
      PAX__INF01: '2026-01-01',
    };
    const pax = FAMILY.map((p) => ({ ...p, individual: { surname: 'Smith', birthdate: births[p.passengerId] } }));
    const priced: OfferPriceRs = pricing.price(offerPriceRq(selected, pax, { token: 'TOK-CREDIT' }));
    if (priced.kind !== 'success') throw new Error(JSON.stringify(priced));
    expect(priced.pricedOffer.offerItems).toHaveLength(9);
    expect(checkReferences(priced)).toEqual([]);
    expectValidXsd(encodeOfferPriceRs(priced), 'OfferPriceRS');
  });

  it('error responses', () => {
    const header = { target: 'Test', version: '17.2' };
    const err = ndcErrorOf(() => shopping.shop(dayRq([['LGW', 'OSL', '2020-01-01']])));
    expectValidXsd(encodeAirShoppingRs({ ...header, kind: 'error', errors: [err] }), 'AirShoppingRS');
    const perr = ndcErrorOf(() =>
      pricing.price(offerPriceRq([{ offerId: 'X', owner: 'ZZ', responseId: 'NOPE', offerItems: [] }])),
    );
    expectValidXsd(encodeOfferPriceRs({ ...header, kind: 'error', errors: [perr] }), 'OfferPriceRS');
  });
});
