/**
 * Cross-reference validation the XSD cannot do (xmllint does not report an
 * IDREF that points nowhere): every PassengerRef, SegmentRef, FlightRef,
 * ODRef, PriceClassRef, ServiceDefinitionRef, BaggageAllowanceRef,
 * ContactInfoRef and metadata ref of a decoded message must name an entry of
 * the same message. Works on decoded models (AirShoppingRS, OfferPriceRS,
 * OrderViewRS, OfferPriceRQ, OrderCreateRQ, OrderReshopRS, OrderChangeNotif); pure, no exceptions.
 */
import type {
  AirShoppingRs,
  DataLists,
  FlightRef,
  Metadata,
  Offer,
  OfferItem,
  OfferPriceRq,
  OfferPriceRs,
  OrderCreateRq,
  OrderViewRs,
  Order,
  Passenger,
  PricedOffer,
  SelectedOfferItem,
} from './ndc.model';
import type { OrderChangeNotif, OrderReshopResult, OrderReshopRs } from './servicing.model';

/** One dangling (or duplicate) reference. `path` is a JS-style path into the model, e.g. `pricedOffer.offerItems[2].services[0].passengerRefs[1]`. */
export interface ReferenceProblem {
  path: string;
  message: string;
}

export type ReferenceCheckable =
  AirShoppingRs | OfferPriceRs | OrderViewRs | OfferPriceRq | OrderCreateRq | OrderReshopRs | OrderChangeNotif;

type Kind =
  | 'Passenger'
  | 'FlightSegment'
  | 'Flight'
  | 'OriginDestination'
  | 'PriceClass'
  | 'ServiceDefinition'
  | 'BaggageAllowance'
  | 'ContactInformation'
  | 'Metadata';

class Checker {
  readonly problems: ReferenceProblem[] = [];
  private readonly ids = new Map<Kind, Set<string>>();

  /** Declares the ids of a list's entries (an entry without id, which the XSD allows, declares none). */
  declare(kind: Kind, entries: readonly (string | undefined)[] | undefined, path: string): void {
    const set = this.ids.get(kind) ?? new Set<string>();
    (entries ?? []).forEach((id, i) => {
      if (id === undefined) return;
      if (set.has(id)) this.problems.push({ path: `${path}[${i}]`, message: `duplicate ${kind} id ${id}` });
      set.add(id);
    });
    this.ids.set(kind, set);
  }

  ref(kind: Kind, id: string | undefined, path: string): void {
    if (id === undefined) return;
    if (!this.ids.get(kind)?.has(id)) this.problems.push({ path, message: `${id} points to no ${kind}` });
  }

  refs(kind: Kind, ids: readonly string[] | undefined, path: string): void {
    (ids ?? []).forEach((id, i) => this.ref(kind, id, `${path}[${i}]`));
  }
}

type ListEntry<K extends keyof DataLists> = NonNullable<DataLists[K]>[number];

function declareLists(c: Checker, dl: DataLists, md: Metadata | undefined, path: string): void {
  const list = <K extends keyof DataLists>(kind: Kind, name: K, id: (x: ListEntry<K>) => string | undefined): void =>
    c.declare(kind, (dl[name] as ListEntry<K>[] | undefined)?.map(id), `${path}.${name}`);
  list('Passenger', 'passengers', (p) => p.passengerId);
  list('ContactInformation', 'contacts', (x) => x.contactId);
  list('BaggageAllowance', 'baggageAllowances', (b) => b.baggageAllowanceId);
  list('FlightSegment', 'flightSegments', (s) => s.segmentKey);
  list('Flight', 'flights', (f) => f.flightKey);
  list('OriginDestination', 'originDestinations', (o) => o.originDestinationKey);
  list('PriceClass', 'priceClasses', (p) => p.priceClassId);
  list('ServiceDefinition', 'serviceDefinitions', (s) => s.serviceDefinitionId);
  if (md === undefined) return;
  for (const name of ['journeys', 'languages', 'countries', 'cities'] as const) {
    const keys = md[name]?.map((x) => x.key);
    c.declare('Metadata', keys, `metadata.${name}`);
  }
}

function checkPassengers(c: Checker, pax: readonly Passenger[] | undefined, path: string): void {
  (pax ?? []).forEach((p, i) => c.ref('ContactInformation', p.contactInfoRef, `${path}[${i}].contactInfoRef`));
}

function checkLists(c: Checker, dl: DataLists, path: string): void {
  checkPassengers(c, dl.passengers, `${path}.passengers`);
  dl.flightSegments?.forEach((s, i) => {
    c.refs('Metadata', s.departure.refs, `${path}.flightSegments[${i}].departure.refs`);
    c.refs('Metadata', s.arrival.refs, `${path}.flightSegments[${i}].arrival.refs`);
  });
  dl.flights?.forEach((f, i) => c.refs('FlightSegment', f.segmentRefs, `${path}.flights[${i}].segmentRefs`));
  dl.originDestinations?.forEach((o, i) =>
    c.refs('Flight', o.flightRefs, `${path}.originDestinations[${i}].flightRefs`),
  );
  dl.priceClasses?.forEach((pc, i) =>
    pc.classesOfService?.forEach((cos, j) =>
      c.refs('FlightSegment', cos.segmentRefs, `${path}.priceClasses[${i}].classesOfService[${j}].segmentRefs`),
    ),
  );
  dl.serviceDefinitions?.forEach((sd, i) => {
    c.refs('ServiceDefinition', sd.bundleRefs, `${path}.serviceDefinitions[${i}].bundleRefs`);
    c.ref('BaggageAllowance', sd.baggageAllowanceRef, `${path}.serviceDefinitions[${i}].baggageAllowanceRef`);
  });
}

function checkOfferItem(c: Checker, item: OfferItem, path: string): void {
  item.services.forEach((s, i) => {
    const p = `${path}.services[${i}]`;
    c.refs('Passenger', s.passengerRefs, `${p}.passengerRefs`);
    c.refs('Flight', s.flightRefs, `${p}.flightRefs`);
    if (s.serviceDefinitionRef !== undefined) {
      c.ref('ServiceDefinition', s.serviceDefinitionRef.ref, `${p}.serviceDefinitionRef.ref`);
      c.refs('FlightSegment', s.serviceDefinitionRef.segmentRefs, `${p}.serviceDefinitionRef.segmentRefs`);
    }
    if (s.selectedSeat !== undefined) {
      c.ref('FlightSegment', s.selectedSeat.segmentRef, `${p}.selectedSeat.segmentRef`);
      c.ref('ServiceDefinition', s.selectedSeat.serviceDefinitionRef, `${p}.selectedSeat.serviceDefinitionRef`);
    }
  });
  item.fareDetails.forEach((fd, i) => {
    const p = `${path}.fareDetails[${i}]`;
    c.refs('Passenger', fd.passengerRefs, `${p}.passengerRefs`);
    fd.fareComponents.forEach((fc, j) => {
      c.ref('PriceClass', fc.priceClassRef, `${p}.fareComponents[${j}].priceClassRef`);
      c.refs('FlightSegment', fc.segmentRefs?.segmentKeys, `${p}.fareComponents[${j}].segmentRefs.segmentKeys`);
    });
  });
}

function checkOffer(c: Checker, o: Pick<Offer | PricedOffer, 'flightsOverview' | 'offerItems'>, path: string): void {
  o.flightsOverview.forEach((f, i) => {
    const p = `${path}.flightsOverview[${i}]`;
    c.ref('Flight', f.flightKey, `${p}.flightKey`);
    c.ref('OriginDestination', f.odRef, `${p}.odRef`);
    c.ref('PriceClass', f.priceClassRef, `${p}.priceClassRef`);
  });
  o.offerItems.forEach((it, i) => checkOfferItem(c, it, `${path}.offerItems[${i}]`));
}

function checkSelectedItems(c: Checker, items: readonly SelectedOfferItem[], path: string): void {
  items.forEach((it, i) => c.refs('Passenger', it.passengerRefs, `${path}[${i}].passengerRefs`));
}

function checkShopping(c: Checker, msg: Extract<AirShoppingRs, { kind: 'day' | 'calendar' }>): void {
  if (msg.kind === 'day') {
    msg.airlineOffers.forEach((g, i) =>
      g.offers.forEach((o, j) => checkOffer(c, o, `airlineOffers[${i}].offers[${j}]`)),
    );
    return;
  }
  msg.airlineOffers.forEach((g, i) =>
    g.priceCalendar.forEach((e, j) => {
      const p = `airlineOffers[${i}].priceCalendar[${j}]`;
      e.dates.forEach((d, k) =>
        c.ref('OriginDestination', d.originDestinationRef, `${p}.dates[${k}].originDestinationRef`),
      );
      c.refs('Metadata', e.augPointRefs, `${p}.augPointRefs`);
    }),
  );
}

function checkOrder(c: Checker, o: Order, path: string): void {
  o.orderItems.forEach((it, j) =>
    it.services.forEach((s, k) => {
      const p = `${path}.orderItems[${j}].services[${k}]`;
      c.ref('Passenger', s.passengerRef, `${p}.passengerRef`);
      c.ref('FlightSegment', s.segmentRef, `${p}.segmentRef`);
      c.ref('ServiceDefinition', s.serviceDefinitionRef, `${p}.serviceDefinitionRef`);
      c.ref('FlightSegment', s.selectedSeat?.segmentRef, `${p}.selectedSeat.segmentRef`);
      c.ref('ServiceDefinition', s.selectedSeat?.serviceDefinitionRef, `${p}.selectedSeat.serviceDefinitionRef`);
    }),
  );
}

/** The offers of an OrderReshopRS: their flights overview and new items (order item ids are the order's, not checked). */
function checkReshop(c: Checker, result: OrderReshopResult): void {
  if (result.kind !== 'offers') return;
  result.offers.forEach((o, i) => {
    const path = `result.offers[${i}]`;
    checkOffer(c, { flightsOverview: o.flightsOverview, offerItems: [] }, path);
    o.addItems.forEach((it, j) => checkOfferItem(c, it, `${path}.addItems[${j}]`));
  });
}

/** A request's passengers, contacts and the passengers its selected items name. */
function checkRequest(c: Checker, msg: OfferPriceRq | OrderCreateRq): void {
  c.declare(
    'Passenger',
    msg.passengers.map((p) => p.passengerId),
    'passengers',
  );
  if ('contacts' in msg) {
    c.declare(
      'ContactInformation',
      msg.contacts.map((x) => x.contactId),
      'contacts',
    );
    checkPassengers(c, msg.passengers, 'passengers');
  }
  msg.offers.forEach((o, i) => checkSelectedItems(c, o.offerItems, `offers[${i}].offerItems`));
}

/**
 * Lists every reference of `msg` that points to nothing in the same message
 * (and every duplicate id in a list). An empty array means all references
 * resolve. Error forms have nothing to check.
 */
export function checkReferences(msg: ReferenceCheckable): ReferenceProblem[] {
  const c = new Checker();
  if ('amendments' in msg) {
    declareLists(c, msg.dataLists, undefined, 'dataLists');
    checkLists(c, msg.dataLists, 'dataLists');
    checkOrder(c, msg.order, 'order');
    return c.problems;
  }
  if (!('kind' in msg)) {
    checkRequest(c, msg);
    return c.problems;
  }
  if (msg.kind === 'error') return [];
  declareLists(c, msg.dataLists, msg.metadata, 'dataLists');
  checkLists(c, msg.dataLists, 'dataLists');
  if ('airlineOffers' in msg) checkShopping(c, msg);
  else if ('pricedOffer' in msg) checkOffer(c, msg.pricedOffer, 'pricedOffer');
  else if ('orders' in msg) msg.orders.forEach((o, i) => checkOrder(c, o, `orders[${i}]`));
  else checkReshop(c, msg.result);
  return c.problems;
}

/**
 * The OriginDestinationKey of a `FlightsOverview/FlightRef`: its `@ODRef` when the message gives
 * one (optional in the XSD), else the only OriginDestination whose `FlightReferences` name its
 * flight. `undefined` when neither resolves it (no such OriginDestination, or several).
 */
export function flightOriginDestination(
  ref: FlightRef,
  dataLists: Pick<DataLists, 'originDestinations'>,
): string | undefined {
  if (ref.odRef !== undefined) return ref.odRef;
  const matches = (dataLists.originDestinations ?? []).filter((od) => od.flightRefs?.includes(ref.flightKey));
  return matches.length === 1 ? matches[0].originDestinationKey : undefined;
}
