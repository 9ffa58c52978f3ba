import { loadWorld } from '../world/world';
import { extraItem, fareItem, surchargeItem } from './servicing.fixture';
import {
  cardSurcharge,
  changeFee,
  checkPassengerRemoval,
  holdTimeLimits,
  itemDifference,
  itemRefund,
} from './servicing.rules';

const world = loadWorld();
const HOURS = 3_600_000;
const now = new Date('2026-11-01T10:00:00.000Z');

describe('holdTimeLimits', () => {
  const settings = { holdMs: 24 * HOURS, priceGuaranteeMs: HOURS };

  it('pays within the hold, the price guaranteed for its own time', () => {
    expect(holdTimeLimits(now, settings, new Date('2026-12-01T07:00:00.000Z'))).toEqual({
      paymentDue: '2026-11-02T10:00:00.000Z',
      priceGuaranteedUntil: '2026-11-01T11:00:00.000Z',
    });
  });

  it('never past 2 hours before the first departure, the guarantee never past the payment', () => {
    expect(holdTimeLimits(now, settings, new Date('2026-11-01T12:30:00.000Z'))).toEqual({
      paymentDue: '2026-11-01T10:30:00.000Z',
      priceGuaranteedUntil: '2026-11-01T10:30:00.000Z',
    });
  });

  it('no hold when the first flight leaves within 2 hours', () => {
    expect(holdTimeLimits(now, settings, new Date('2026-11-01T12:00:00.000Z'))).toBeUndefined();
  });
});

describe('change fees and differences (world.json changes)', () => {
  it('the fee of the fare family given up, at most its base fare; FLEX and extras free', () => {
    expect(changeFee(world, fareItem('E', 'P', 'ECONOMY', '217.55', '13.00'), 'GBP')).toBe('50.00');
    expect(changeFee(world, fareItem('E', 'P', 'ECONOMY', '46.55', '13.00'), 'GBP')).toBe('46.55');
    expect(changeFee(world, fareItem('P', 'P', 'PLUS', '378.35', '13.00'), 'EUR')).toBe('28.75');
    expect(changeFee(world, fareItem('F', 'P', 'FLEX', '803.85', '13.00'), 'GBP')).toBe('0.00');
    expect(changeFee(world, extraItem('B', 'P', '35.00'), 'GBP')).toBe('0.00');
  });

  it('a dearer trip: the difference and the fee to pay', () => {
    expect(itemDifference(world, fareItem('E', 'P', 'ECONOMY', '217.55', '13.00'), '276.35', 'GBP')).toEqual({
      original: '230.55',
      newPrice: '276.35',
      penalty: '50.00',
      due: '95.80',
    });
  });

  it('a cheaper trip: the difference less the fee refunded where the family refunds, else nothing', () => {
    expect(itemDifference(world, fareItem('P', 'P', 'PLUS', '378.35', '13.00'), '325.55', 'GBP').due).toBe('-40.80');
    expect(itemDifference(world, fareItem('F', 'P', 'FLEX', '803.85', '13.00'), '677.05', 'GBP').due).toBe('-139.80');
    expect(itemDifference(world, fareItem('E', 'P', 'ECONOMY', '500.00', '13.00'), '230.55', 'GBP').due).toBe('0.00');
  });
});

describe('itemRefund (the OrderCancel rules, item by item)', () => {
  const order = { createdAt: '2026-10-01T10:00:00.000Z', currency: 'GBP', paid: true };

  it('after the void window: ECONOMY its taxes, PLUS less 40.00, extras and the surcharge nothing', () => {
    expect(itemRefund(world, fareItem('E', 'P', 'ECONOMY', '46.55', '13.00'), order, now)).toEqual({
      original: '59.55',
      fee: '46.55',
      refund: '13.00',
    });
    expect(itemRefund(world, fareItem('P', 'P', 'PLUS', '94.05', '13.00'), order, now).refund).toBe('67.05');
    expect(itemRefund(world, extraItem('B', 'P', '35.00'), order, now).refund).toBe('0.00');
    expect(itemRefund(world, surchargeItem('C', ['P'], '1.19'), order, now).refund).toBe('0.00');
  });

  it('within the void window everything; an unpaid order nothing', () => {
    const fresh = { ...order, createdAt: '2026-11-01T09:00:00.000Z' };
    expect(itemRefund(world, extraItem('B', 'P', '35.00'), fresh, now)).toEqual({
      original: '35.00',
      fee: '0.00',
      refund: '35.00',
    });
    expect(itemRefund(world, fareItem('E', 'P', 'FLEX', '46.55', '13.00'), { ...order, paid: false }, now)).toEqual({
      original: '0.00',
      fee: '0.00',
      refund: '0.00',
    });
  });
});

describe('checkPassengerRemoval', () => {
  const family = [
    { passengerId: 'A1', ptc: 'ADT' },
    { passengerId: 'A2', ptc: 'ADT' },
    { passengerId: 'C1', ptc: 'CHD' },
    { passengerId: 'I1', ptc: 'INF' },
  ];

  it('lets one adult go while another holds the infant', () => {
    expect(() => checkPassengerRemoval(family, ['A2'])).not.toThrow();
    expect(() => checkPassengerRemoval(family, ['I1', 'A1'])).not.toThrow();
  });

  it('never leaves an infant without its adult, nor the order without an adult', () => {
    expect(() => checkPassengerRemoval(family, ['A1', 'A2'])).toThrow(
      /would leave no adult on the order \(left: C1 \(CHD\), I1 \(INF\)\)/,
    );
    const pair = [family[0]!, family[3]!];
    expect(() =>
      checkPassengerRemoval([...pair, { passengerId: 'A3', ptc: 'ADT' }, { passengerId: 'I2', ptc: 'INF' }], ['A3']),
    ).toThrow(/would leave 2 infants with 1 adults/);
  });
});

describe('cardSurcharge', () => {
  it('2 % of the amount for credit cards, rounded to the minor unit; none for debit', () => {
    expect(cardSurcharge(world, { value: '35.00', currency: 'GBP' }, 'credit')).toEqual({
      value: '0.70',
      currency: 'GBP',
    });
    expect(cardSurcharge(world, { value: '276.35', currency: 'GBP' }, 'credit')).toEqual({
      value: '5.53',
      currency: 'GBP',
    });
    expect(cardSurcharge(world, { value: '35.00', currency: 'GBP' }, 'debit')).toBeUndefined();
  });
});
