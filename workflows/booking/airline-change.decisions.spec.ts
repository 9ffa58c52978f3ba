import type { OrderFlight } from '../../src/booking/servicing.model';
import { airlineChangeOf, connectionsValid, policyAccepts } from './airline-change.decisions';

const leg = (flight: string, origin: string, destination: string, departure: string, arrival: string): OrderFlight => ({
  segmentKey: `${flight}-${departure}`,
  flight,
  origin,
  destination,
  departure,
  arrival,
});

const OUT = leg('ZZ1', 'LGW', 'OSL', '2027-03-10T08:30', '2027-03-10T11:30');
const CONNECTING = [OUT, leg('ZZ7', 'OSL', 'TRD', '2027-03-10T13:00', '2027-03-10T14:00')];

describe('airlineChangeOf', () => {
  it('sees nothing when flights, times and status are the same', () => {
    expect(airlineChangeOf({ flights: [OUT], status: 'OK' }, { flights: [{ ...OUT }], status: 'OK' })).toEqual({
      kind: 'none',
    });
  });

  it('measures a retime by the largest move of a departure or an arrival', () => {
    const later = { ...OUT, departure: '2027-03-10T09:00', arrival: '2027-03-10T12:15' };
    expect(airlineChangeOf({ flights: [OUT], status: 'OK' }, { flights: [later], status: 'OK' })).toEqual({
      kind: 'retime',
      shiftMinutes: 45,
    });
  });

  it('calls other flights a reroute, and a cancelled order cancelled', () => {
    const other = { ...OUT, flight: 'ZZ3' };
    expect(airlineChangeOf({ flights: [OUT], status: 'OK' }, { flights: [other], status: 'OK' }).kind).toBe('reroute');
    expect(airlineChangeOf({ flights: [OUT], status: 'OK' }, { flights: [OUT], status: 'CANCELLED' }).kind).toBe(
      'cancelled',
    );
  });
});

describe('connectionsValid', () => {
  it('keeps a connection of at least 45 minutes at the same airport', () => {
    expect(connectionsValid(CONNECTING)).toBe(true);
    const tight = [OUT, { ...CONNECTING[1]!, departure: '2027-03-10T12:10' }];
    expect(connectionsValid(tight)).toBe(false);
  });

  it('does not take a return a week later for a connection', () => {
    const back = leg('ZZ2', 'OSL', 'LGW', '2027-03-17T08:00', '2027-03-17T10:00');
    expect(connectionsValid([OUT, back])).toBe(true);
  });
});

describe('policyAccepts', () => {
  const policy = { autoAccept: { maxShiftMinutes: 60 } };

  it('accepts a retime within the limit that keeps every connection', () => {
    expect(policyAccepts(policy, { kind: 'retime', shiftMinutes: 30 }, { flights: CONNECTING })).toBe(true);
  });

  it('leaves the rest to the agency: a longer retime, a broken connection, a reroute, no policy', () => {
    expect(policyAccepts(policy, { kind: 'retime', shiftMinutes: 300 }, { flights: [OUT] })).toBe(false);
    const broken = [OUT, { ...CONNECTING[1]!, departure: '2027-03-10T11:50' }];
    expect(policyAccepts(policy, { kind: 'retime', shiftMinutes: 30 }, { flights: broken })).toBe(false);
    expect(policyAccepts(policy, { kind: 'reroute' }, { flights: [OUT] })).toBe(false);
    expect(policyAccepts(undefined, { kind: 'retime', shiftMinutes: 5 }, { flights: [OUT] })).toBe(false);
  });
});
