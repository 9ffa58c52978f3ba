import { expectValidXsd, validateXsd } from '../../test/support/xsd';
import { decodeError } from '../../test/support/ndc';
import {
  decodeContactInformation,
  decodeErrors,
  decodeParty,
  decodePassenger,
  decodeWarnings,
  encodeErrors,
  encodePassengerList,
  encodeWarnings,
} from './common.codec';
import type { NdcError, NdcWarning } from './ndc.model';
import { NDC_NS, addEl, endMessage, one, parseNdc, startMessage } from './xml';

const header = {
  target: 'Test',
  version: '17.2',
  timeStamp: '2026-11-21T07:00:00.123+01:00',
  transactionIdentifier: 'TX1',
  correlationId: 'C1',
};

const notFound: NdcError = {
  code: '913',
  shortText: 'Requested item or data not found or does not exist in processing host',
  status: 'Complete',
  text: 'Order XS-ORD-404 could not be found',
};

describe('Errors and Warnings', () => {
  it('round-trip in the OrderViewRS error form (Document first) and validate', () => {
    const root = startMessage('OrderViewRS', header);
    addEl(root, 'Document');
    encodeErrors(root, [notFound]);
    const xml = endMessage(root);
    expectValidXsd(xml, 'OrderViewRS');
    expect(xml).toContain(
      '<Errors><Error ShortText="Requested item or data not found or does not exist in processing host" Code="913" Status="Complete">' +
        'Order XS-ORD-404 could not be found</Error></Errors>',
    );
    const { node, path } = parseNdc(xml, 'OrderViewRS');
    expect(decodeErrors(one(node, 'Errors', path), `${path}/Errors`)).toStrictEqual([notFound]);
  });

  it('schema fact: OrderViewRS needs Document before Errors, AirShoppingRS and OfferPriceRS take Errors right under the root', () => {
    const bare = (root: string) => {
      const el = startMessage(root, header);
      encodeErrors(el, [{ code: '911', text: 'Unable to process' }]);
      return endMessage(el);
    };
    expect(validateXsd(bare('OrderViewRS'), 'OrderViewRS').valid).toBe(false);
    expectValidXsd(bare('AirShoppingRS'), 'AirShoppingRS');
    expectValidXsd(bare('OfferPriceRS'), 'OfferPriceRS');
  });

  it('decode several errors, minimal errors, and read an Error without Code (optional in the XSD)', () => {
    const xml = `<AirShoppingRS xmlns="${NDC_NS}" Version="17.2"><Errors><Error Code="911">a &amp; b</Error><Error Code="1" ShortText="s"/></Errors></AirShoppingRS>`;
    const { node, path } = parseNdc(xml, 'AirShoppingRS');
    expect(decodeErrors(one(node, 'Errors', path), `${path}/Errors`)).toStrictEqual([
      { code: '911', text: 'a & b' },
      { code: '1', shortText: 's', text: '' },
    ]);
    // Code is optional in the XSD: the error still decodes, without a code.
    const noCode = parseNdc(
      `<AirShoppingRS xmlns="${NDC_NS}" Version="17.2"><Errors><Error>x</Error></Errors></AirShoppingRS>`,
      'AirShoppingRS',
    );
    expect(decodeErrors(one(noCode.node, 'Errors', '/AirShoppingRS'), '/AirShoppingRS/Errors')).toStrictEqual([
      { text: 'x' },
    ]);
  });

  it('round-trip warnings', () => {
    const warnings: NdcWarning[] = [
      { code: '702', shortText: 'Partial', text: 'Some offers are missing' },
      { text: 'plain' },
    ];
    const root = startMessage('AirShoppingRS', header);
    encodeWarnings(root, warnings);
    const { node, path } = parseNdc(endMessage(root), 'AirShoppingRS');
    expect(decodeWarnings(one(node, 'Warnings', path))).toStrictEqual(warnings);
  });
});

describe('Party', () => {
  const party = (inner: string) =>
    parseNdc(
      `<X xmlns="${NDC_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Party>${inner}</Party></X>`,
      'X',
    );
  const sender = '<Sender><TravelAgencySender><Name>N</Name><AgencyID>A</AgencyID></TravelAgencySender></Sender>';

  it('reads nil Participants as [] and absent Participants as absent', () => {
    const nil = party(`${sender}<Participants xsi:nil="true"/><Recipient xsi:nil="true"/>`);
    expect(decodeParty(one(nil.node, 'Party', '/X'), '/X/Party')).toStrictEqual({
      name: 'N',
      agencyId: 'A',
      participants: [],
    });
    const absent = party(sender);
    expect(decodeParty(one(absent.node, 'Party', '/X'), '/X/Party')).toStrictEqual({ name: 'N', agencyId: 'A' });
  });

  it('reads a sender that is not a travel agency as its kind, without agency fields', () => {
    const p = party('<Sender><AggregatorSender><AggregatorID>X</AggregatorID></AggregatorSender></Sender>');
    expect(decodeParty(one(p.node, 'Party', '/X'), '/X/Party')).toStrictEqual({ senderKind: 'AggregatorSender' });
    const e = decodeError(() => decodeParty(one(party('<Sender/>').node, 'Party', '/X'), '/X/Party'));
    expect([e.code, e.path]).toEqual(['MISSING', '/X/Party/Sender/TravelAgencySender']);
  });

  it('reads a TravelAgencySender without Name (optional in the XSD), and still requires its AgencyID', () => {
    const p = party('<Sender><TravelAgencySender><AgencyID>A1</AgencyID></TravelAgencySender></Sender>');
    expect(decodeParty(one(p.node, 'Party', '/X'), '/X/Party')).toStrictEqual({ agencyId: 'A1' });
    const e = decodeError(() =>
      decodeParty(
        one(party('<Sender><TravelAgencySender><Name>n</Name></TravelAgencySender></Sender>').node, 'Party', '/X'),
        '/X/Party',
      ),
    );
    expect([e.code, e.path]).toEqual(['MISSING', '/X/Party/Sender/TravelAgencySender/AgencyID']);
  });

  it('refuses a non-numeric SequenceNumber', () => {
    const p = party(
      `${sender}<Participants><Participant><AggregatorParticipant SequenceNumber="one"><Name>n</Name><AggregatorID>a</AggregatorID></AggregatorParticipant></Participant></Participants>`,
    );
    const err = decodeError(() => decodeParty(one(p.node, 'Party', '/X'), '/X/Party'));
    expect(err.code).toBe('INVALID_VALUE');
    expect(err.path).toBe('/X/Party/Participants/Participant[1]/AggregatorParticipant/@SequenceNumber');
  });
});

describe('Passengers and contacts', () => {
  it('schema fact: an Individual with only a Birthdate is invalid, so Surname is required both ways', () => {
    const root = startMessage('AirShoppingRQ', header);
    addEl(root, 'Document');
    const s = addEl(addEl(root, 'Party'), 'Sender');
    const tas = addEl(s, 'TravelAgencySender');
    addEl(tas, 'Name', 'N');
    addEl(tas, 'AgencyID', 'A');
    const od = addEl(addEl(addEl(root, 'CoreQuery'), 'OriginDestinations'), 'OriginDestination');
    const dep = addEl(od, 'Departure');
    addEl(dep, 'AirportCode', 'LHR');
    addEl(dep, 'Date', '2027-01-01');
    addEl(addEl(od, 'Arrival'), 'AirportCode', 'JFK');
    encodePassengerList(addEl(root, 'DataLists'), [
      { passengerId: 'PAX1', ptc: 'CHD', individual: { birthdate: '2018-01-01', surname: 'X' } },
    ]);
    const valid = endMessage(root);
    expectValidXsd(valid, 'AirShoppingRQ');
    expect(validateXsd(valid.replace('<Surname>X</Surname>', ''), 'AirShoppingRQ').valid).toBe(false);
    // and PassengerID must be an XML name
    expect(validateXsd(valid.replace('PassengerID="PAX1"', 'PassengerID="1"'), 'AirShoppingRQ').valid).toBe(false);
  });

  it('refuses a birth date that is not YYYY-MM-DD', () => {
    const { node } = parseNdc(
      `<P xmlns="${NDC_NS}"><Passenger PassengerID="PAX1"><PTC>ADT</PTC><Individual><Birthdate>02/06/1984</Birthdate><Surname>S</Surname></Individual></Passenger></P>`,
      'P',
    );
    const err = decodeError(() => decodePassenger(one(node, 'Passenger', '/P'), '/P/Passenger[1]'));
    expect(err.code).toBe('INVALID_VALUE');
    expect(err.path).toBe('/P/Passenger[1]/Individual/Birthdate');
  });

  it('splits a ContactProvided with several addresses into one entry each, in order', () => {
    const { node } = parseNdc(
      `<C xmlns="${NDC_NS}"><ContactInformation ContactID="CTC1"><ContactProvided>` +
        '<EmailAddress><EmailAddressValue>a@x.example</EmailAddressValue></EmailAddress>' +
        '<EmailAddress><Label>work</Label><EmailAddressValue>b@x.example</EmailAddressValue></EmailAddress>' +
        '</ContactProvided><ContactProvided><Phone><CountryDialingCode>33</CountryDialingCode><PhoneNumber>612345678</PhoneNumber></Phone></ContactProvided>' +
        '<ContactNotProvided>postal</ContactNotProvided></ContactInformation></C>',
      'C',
    );
    expect(decodeContactInformation(one(node, 'ContactInformation', '/C'), '/C/ContactInformation[1]')).toStrictEqual({
      contactId: 'CTC1',
      provided: [
        { email: 'a@x.example' },
        { email: 'b@x.example' },
        { phone: { countryDialingCode: '33', phoneNumber: '612345678' } },
      ],
    });
  });
});
