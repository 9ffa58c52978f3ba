import type { MoneyOfferItem } from '../../ndc/ndc.model';
import { loadWorld } from '../world/world';
import { cancellationTerms } from './order-cancel';

const world = loadWorld();
const CCF2 = 'SERVICE__CCF2';

function item(
  id: string,
  priceClass: string | undefined,
  base: string,
  taxes: string,
  currency = 'GBP',
  serviceId = `${id}-S`,
): MoneyOfferItem {
  const money = (value: string) => ({ value, currency });
  return {
    offerItemId: id,
    priceDetail: { base: money(base), taxes: money(taxes), total: money((Number(base) + Number(taxes)).toFixed(2)) },
    services: [{ serviceId, passengerRefs: ['PAX1'] }],
    fareDetails: priceClass
      ? [
          {
            passengerRefs: ['PAX1'],
            base: money(base),
            taxes: money(taxes),
            total: money(base),
            fareComponents: [
              { rbd: 'X', cabinTypeCode: 'M', cabinTypeName: 'ECONOMY', priceClassRef: `PC__${priceClass}` },
            ],
          },
        ]
      : [],
  };
}

describe('cancellationTerms', () => {
  const created = '2026-11-01T10:00:00.000Z';
  const later = new Date('2026-11-03T10:00:00.000Z');

  it('is a void refunding everything within 24 hours, surcharge included', () => {
    const items = [item('I1', 'ECONOMY', '46.55', '13.00'), item('I2', undefined, '1.19', '0.00', 'GBP', CCF2)];
    const terms = cancellationTerms(
      world,
      { createdAt: created, total: { value: '60.74', currency: 'GBP' }, items },
      new Date('2026-11-02T09:59:59.999Z'),
      CCF2,
    );
    expect(terms).toEqual({
      kind: 'void',
      fee: { value: '0.00', currency: 'GBP' },
      refund: { value: '60.74', currency: 'GBP' },
    });
  });

  it('afterwards: Economy keeps the fare, Plus 40 GBP, Flex nothing, the surcharge is kept', () => {
    const items = [
      item('ECO', 'ECONOMY', '46.55', '13.00'),
      item('PLUS', 'PLUS', '94.05', '13.00'),
      item('FLEX', 'FLEX', '151.05', '13.00'),
      item('CCF2', undefined, '6.60', '0.00', 'GBP', CCF2),
    ];
    const total = { value: '337.25', currency: 'GBP' };
    expect(cancellationTerms(world, { createdAt: created, total, items }, later, CCF2)).toEqual({
      kind: 'cancel',
      fee: { value: '93.15', currency: 'GBP' },
      refund: { value: '244.10', currency: 'GBP' },
    });
  });

  it('converts the class fee into the order currency and never charges more than the base fare', () => {
    const nok = [item('PLUS', 'PLUS', '1260.27', '174.20', 'NOK')];
    expect(
      cancellationTerms(
        world,
        { createdAt: created, total: { value: '1434.47', currency: 'NOK' }, items: nok },
        later,
        CCF2,
      ).fee,
    ).toEqual({ value: '536.00', currency: 'NOK' });
    const cheap = [item('PLUS', 'PLUS', '10.00', '13.00')];
    expect(
      cancellationTerms(
        world,
        { createdAt: created, total: { value: '23.00', currency: 'GBP' }, items: cheap },
        later,
        CCF2,
      ),
    ).toMatchObject({
      fee: { value: '10.00', currency: 'GBP' },
      refund: { value: '13.00', currency: 'GBP' },
    });
  });
});
