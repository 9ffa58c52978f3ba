import {
  RETAIL_MESSAGE_PATHS,
  RETAIL_OPERATION_NAMES,
  RETAIL_PATHS,
  operationAt,
  retailPathOf,
  rootsAt,
} from './retail.operations';

describe('the registry of NDC operations', () => {
  it('gives each path its roots, and each root its operation at its path only', () => {
    expect(RETAIL_MESSAGE_PATHS.map((p) => [p, rootsAt(p), RETAIL_PATHS[p].name])).toEqual([
      ['offers', ['AirShoppingRQ'], 'AirShoppingRS'],
      ['offerPrices', ['OfferPriceRQ'], 'OfferPriceRS'],
      ['services', ['ServiceListRQ'], 'ServiceListRS'],
      ['availability/seat', ['SeatAvailabilityRQ'], 'SeatAvailabilityRS'],
      [
        'orders',
        ['OrderCreateRQ', 'OrderRetrieveRQ', 'OrderCancelRQ', 'OrderReshopRQ', 'OrderChangeRQ', 'CustomerInputRS'],
        'OrderViewRS',
      ],
    ]);
    expect(operationAt('orders', 'OrderCancelRQ')).toMatchObject({ name: 'OrderCancel', path: 'orders' });
    expect(operationAt('orders', 'OrderCancelRQ')?.answers.name).toBe('OrderCancelRS');
    expect(operationAt('offers', 'OrderCancelRQ')).toBeUndefined();
    expect(operationAt('orders', 'OrderReshopRQ')?.answers.name).toBe('OrderReshopRS');
    expect(operationAt('orders', 'OrderChangeRQ')?.answers.name).toBe('OrderViewRS');
  });

  it('knows no other root, not even a name every object has', () => {
    for (const root of ['OrderChangeNotif', 'FooRQ', 'toString', 'constructor', '__proto__'])
      expect(operationAt('orders', root)).toBeUndefined();
  });

  it('matches request paths as Express routes them', () => {
    expect(retailPathOf('/retail/offerPrices')).toBe('offerPrices');
    expect(retailPathOf('/RETAIL/OFFERPRICES/')).toBe('offerPrices');
    expect(retailPathOf('/retail/availability/seat')).toBe('availability/seat');
    expect(retailPathOf('/retail/nothing')).toBeUndefined();
    expect(retailPathOf('/payment/tokens')).toBeUndefined();
  });

  it('names every operation once (the fault simulator arms faults by these names)', () => {
    expect(RETAIL_OPERATION_NAMES).toEqual([
      'AirShopping',
      'OfferPrice',
      'ServiceList',
      'SeatAvailability',
      'OrderCreate',
      'OrderRetrieve',
      'OrderCancel',
      'OrderReshop',
      'OrderChange',
      'CustomerInput',
    ]);
  });
});
