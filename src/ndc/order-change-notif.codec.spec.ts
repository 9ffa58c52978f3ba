import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeError, xsdRoundTrip } from '../../test/support/ndc';
import { cancelledFlightNotif, retimeNotif } from './fixtures/order-change-notif.fixtures';
import { decodeOrderChangeNotif, encodeOrderChangeNotif } from './order-change-notif.codec';
import type { OrderChangeNotif } from './servicing.model';
import { NDC_BINDINGS, wrapInBinding } from './soap';
import { ndcRootName } from './xml';

const roundTrip = (m: OrderChangeNotif) =>
  xsdRoundTrip(m, encodeOrderChangeNotif, decodeOrderChangeNotif, 'OrderChangeNotif');

describe('OrderChangeNotif codec', () => {
  it('a retime: encodes exactly the golden file (valid), the order as it now is and the amendment, and reads it back', () => {
    const golden = readFileSync(join(__dirname, 'fixtures', 'order-change-notif.retime.golden.xml'), 'utf8');
    const { xml, back } = roundTrip(retimeNotif);
    expect(xml).toBe(golden.trim().replace(/>\n</g, '><'));
    expect(back).toStrictEqual(retimeNotif);
    expect(decodeOrderChangeNotif(golden)).toStrictEqual(retimeNotif);
    expect(xml).toMatch(/^<\?xml[^>]*\?><OrderChangeNotif [^>]* SequenceNmbr="3">/);
    expect(xml).toContain(
      '<Document/><Party><Sender><ORA_Sender><AirlineID>XS</AirlineID></ORA_Sender></Sender>' +
        '<Recipient><TravelAgencyRecipient><AgencyID>SAGA01</AgencyID></TravelAgencyRecipient></Recipient></Party>' +
        '<Query><Order OrderID="ORD-9K2Q7X" Owner="XS"',
    );
    expect(xml).toContain('<Status ScheduleChangeInd="true"><StatusCode>OK</StatusCode></Status>');
    expect(xml).toContain(
      '</OrderItems></Order><Amendments><Amendment><ActionType Context="ScheduleChange">Update</ActionType>' +
        '<Remarks><Remark>XS101 on 2027-03-10 departs 11:25 instead of 10:40 (+45 min)</Remark></Remarks></Amendment></Amendments></Query><DataLists>',
    );
    expect(xml).toContain('<Departure><AirportCode>LHR</AirportCode><Date>2027-03-10</Date><Time>11:25</Time>');
  });

  it('a cancelled flight with two amendments round-trips, and reads the same in every binding', () => {
    const { xml, back } = roundTrip(cancelledFlightNotif);
    expect(back).toStrictEqual(cancelledFlightNotif);
    for (const binding of NDC_BINDINGS) {
      const wrapped = wrapInBinding(xml, binding, { sellerId: 'XS', recipient: 'SAGA01' });
      expect([binding, ndcRootName(wrapped)]).toStrictEqual([binding, 'OrderChangeNotif']);
      expect([binding, decodeOrderChangeNotif(Buffer.from(wrapped))]).toStrictEqual([binding, cancelledFlightNotif]);
    }
  });

  it('the action deadline of a schedule change round-trips as a BilateralTimeLimit named ScheduleChangeAction (valid), beside a payment time limit', () => {
    const order = {
      ...retimeNotif.order,
      paymentTimeLimit: '2027-03-01T10:00:00Z',
      scheduleChangeActionBy: '2027-03-03T09:30:00.000Z',
    };
    const { xml, back } = roundTrip({ ...retimeNotif, order });
    expect(back.order).toStrictEqual(order);
    expect(xml).toContain(
      '<TimeLimits><PaymentTimeLimit DateTime="2027-03-01T10:00:00Z"/><BilateralTimeLimits>' +
        '<BilateralTimeLimit DateTime="2027-03-03T09:30:00.000Z"><Name>ScheduleChangeAction</Name></BilateralTimeLimit>' +
        '</BilateralTimeLimits></TimeLimits>',
    );
    const otherName = xml.replace('<Name>ScheduleChangeAction</Name>', '<Name>Other Time Limit</Name>');
    expect(decodeOrderChangeNotif(otherName).order.scheduleChangeActionBy).toBeUndefined();
  });

  it('reads other parties: another airline sender, an agent user recipient, no recipient; writes only ORA_Sender', () => {
    const xml = encodeOrderChangeNotif(retimeNotif);
    const poa = xml
      .replace(
        '<ORA_Sender><AirlineID>XS</AirlineID></ORA_Sender>',
        '<POA_Sender><AirlineID>PA</AirlineID></POA_Sender>',
      )
      .replace(
        '<TravelAgencyRecipient><AgencyID>SAGA01</AgencyID></TravelAgencyRecipient>',
        '<AgentUserRecipient><Name>Desk</Name><AgencyID>SAGA02</AgencyID></AgentUserRecipient>',
      );
    expect(decodeOrderChangeNotif(poa).party).toStrictEqual({
      airlineId: 'PA',
      senderKind: 'POA_Sender',
      agencyId: 'SAGA02',
    });
    const noRecipient = xml.replace(/<Recipient>.*<\/Recipient>/, '');
    expect(decodeOrderChangeNotif(noRecipient).party).toStrictEqual({ airlineId: 'XS' });
    const agency = xml.replace(
      '<ORA_Sender><AirlineID>XS</AirlineID></ORA_Sender>',
      '<TravelAgencySender><AgencyID>X</AgencyID></TravelAgencySender>',
    );
    expect(decodeOrderChangeNotif(agency).party).toStrictEqual({
      senderKind: 'TravelAgencySender',
      agencyId: 'SAGA01',
    });
    expect(() =>
      encodeOrderChangeNotif({ ...retimeNotif, party: { senderKind: 'POA_Sender', airlineId: 'PA' } }),
    ).toThrow('OrderChangeNotif Party: only an ORA_Sender can be encoded, not POA_Sender');
  });

  it('names what is wrong: a SequenceNmbr that is no count, an Amendment without ActionType; an empty ActionType is read as written', () => {
    const xml = encodeOrderChangeNotif(retimeNotif);
    const seq = decodeError(() => decodeOrderChangeNotif(xml.replace('SequenceNmbr="3"', 'SequenceNmbr="third"')));
    expect([seq.code, seq.path]).toStrictEqual(['INVALID_VALUE', '/OrderChangeNotif/@SequenceNmbr']);
    const noAction = decodeError(() =>
      decodeOrderChangeNotif(xml.replace(/<ActionType[^>]*>Update<\/ActionType>/, '')),
    );
    expect([noAction.code, noAction.path]).toStrictEqual([
      'MISSING',
      '/OrderChangeNotif/Query/Amendments/Amendment[1]/ActionType',
    ]);
    const empty = decodeOrderChangeNotif(xml.replace('>Update</ActionType>', '></ActionType>'));
    expect(empty.amendments[0]).toStrictEqual({
      actionType: '',
      context: 'ScheduleChange',
      remarks: [retimeNotif.amendments[0]!.remarks[0]],
    });
    const noOrder = decodeError(() => decodeOrderChangeNotif(xml.replace(/<Order .*<\/Order>/, '')));
    expect([noOrder.code, noOrder.path]).toStrictEqual(['MISSING', '/OrderChangeNotif/Query/Order']);
  });
});
