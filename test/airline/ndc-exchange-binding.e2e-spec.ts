/**
 * The NDC Exchange binding (`ndcexchange`): the NDC message as the payload of a hub's
 * `NDCMSG_Envelope` in a SOAP 1.1 Body, through the real airline and the real client. The payload
 * may be CDATA (what we send), escaped text or inline XML; answers come in the same envelope; a
 * garbled envelope gets a clear NDC error, never a 500.
 */
import {
  NDC_EXCHANGE_NS,
  decodeOfferPriceRs,
  encodeOfferPriceRq,
  NDC_NS,
  SOAP11_NS,
  decodeAirShoppingRq,
  decodeAirShoppingRs,
  detectBinding,
  ndcRootName,
  unwrapSoap,
  wrapInBinding,
} from '../../src/ndc';
import { NdcHttpClient } from '../../src/ndc-client';
import { expectValidXsd } from '../support/xsd';
import { AUTH, NDC_TYPE_UTF8, http, ndcClientConfig, startAirline, type RunningAirline } from './airline-harness';
import { AGENCY, FAMILY, common, daySearchXml, inDays, selectAll, withIndividuals } from './ndc-client';

const HUB = 'urn:example:ndc-hub:envelope:2';
const SOAP = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '"AirShoppingRQ"' };

/** The header fields of {@link hubEnvelope}; the seller is the payload's AgencyID, as the airline requires. */
const HEADER = { seller: AGENCY, company: 'ZZ', type: 'NDC', version: 'YY.2017.2' };

/** A request envelope written by hand, as a hub's other clients write it, around `payload`. */
function hubEnvelope(payload: string, header: Partial<typeof HEADER> = {}): string {
  const h = { ...HEADER, ...header };
  return (
    `<s:Envelope xmlns:s="${SOAP11_NS}"><s:Body><h:NDCMSG_Envelope xmlns:h="${HUB}">` +
    `<h:NDCMSG_Header><h:Sender><h:SellerID>${h.seller}</h:SellerID></h:Sender><h:Recipient><h:Company>${h.company}</h:Company></h:Recipient>` +
    `<h:Message><h:SchemaType>${h.type}</h:SchemaType><h:SchemaVersion>${h.version}</h:SchemaVersion></h:Message></h:NDCMSG_Header>` +
    `<h:NDCMSG_Body>${payload}</h:NDCMSG_Body></h:NDCMSG_Envelope></s:Body></s:Envelope>`
  );
}

const cdata = (x: string) => `<h:NDCMSG_Payload><![CDATA[${x}]]></h:NDCMSG_Payload>`;

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('NDC Exchange binding', () => {
  let airline: RunningAirline;

  beforeAll(async () => {
    airline = await startAirline({ exchangeNamespace: HUB });
  });

  afterAll(() => airline.close());

  const search = () => daySearchXml([{ from: 'LGW', to: 'OSL', date: inDays(15) }]);
  const post = (body: string) =>
    http(`${airline.url}/retail/offers`, { method: 'POST', headers: { Authorization: AUTH, ...SOAP }, body });

  it('the client sends the CDATA payload with its header and reads the answer in the same envelope', async () => {
    const client = new NdcHttpClient({
      ...ndcClientConfig(airline),
      binding: 'ndcexchange',
      exchange: { namespace: HUB, sellerId: AGENCY, recipient: 'ZZ' },
    });
    try {
      const rs = await client.airShopping(decodeAirShoppingRq(search()));
      expect(rs.kind).toBe('day');
      if (rs.kind === 'day') expect(rs.airlineOffers[0].offers.length).toBeGreaterThan(0);
    } finally {
      client.close();
    }
    const sent = wrapInBinding(search(), 'ndcexchange', { namespace: HUB, sellerId: AGENCY, recipient: 'ZZ' });
    expect(sent).toContain(`<ndcx:NDCMSG_Envelope xmlns:ndcx="${HUB}">`);
    expect(sent).toContain(`<ndcx:Sender><ndcx:SellerID>${AGENCY}</ndcx:SellerID></ndcx:Sender>`);
    expect(sent).toContain('<ndcx:Recipient><ndcx:Company>ZZ</ndcx:Company></ndcx:Recipient>');
    expect(sent).toContain(
      '<ndcx:Message><ndcx:SchemaType>NDC</ndcx:SchemaType><ndcx:SchemaVersion>YY.2017.2</ndcx:SchemaVersion><ndcx:Name>AirShoppingRQ</ndcx:Name></ndcx:Message>',
    );
    expect(sent).toContain('<ndcx:NDCMSG_Payload><![CDATA[<AirShoppingRQ ');
  });

  it.each([
    ['CDATA', cdata],
    ['escaped text', (x: string) => `<h:NDCMSG_Payload>${escape(x)}</h:NDCMSG_Payload>`],
    ['inline XML', (x: string) => `<h:NDCMSG_Payload>${x.replace(/^<\?xml[^?]*\?>/, '')}</h:NDCMSG_Payload>`],
  ])('a request whose payload is %s is answered in the same envelope', async (_form, payload) => {
    const rq = hubEnvelope(payload(search()));
    expect(detectBinding(rq)).toBe('ndcexchange');
    expect(ndcRootName(rq)).toBe('AirShoppingRQ');
    const res = await post(rq);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(detectBinding(res.text)).toBe('ndcexchange');
    expect(res.text).toContain(`xmlns:ndcx="${HUB}"`);
    expect(res.text).toContain('<ndcx:Sender><ndcx:SellerID>ZZ</ndcx:SellerID></ndcx:Sender>');
    expect(res.text).toContain('<ndcx:Name>AirShoppingRS</ndcx:Name>');
    expectValidXsd(unwrapSoap(res.text).text, 'AirShoppingRS');
    expect(decodeAirShoppingRs(res.text).kind).toBe('day');
  });

  it.each([
    ['without NDCMSG_Payload', hubEnvelope(''), '/NDCMSG_Envelope/NDCMSG_Body/NDCMSG_Payload'],
    ['with an empty payload', hubEnvelope('<h:NDCMSG_Payload>  </h:NDCMSG_Payload>'), 'NDCMSG_Payload is empty'],
    [
      'with a payload that is not XML',
      hubEnvelope('<h:NDCMSG_Payload>&lt;AirShoppingRQ xmlns="' + NDC_NS + '"&gt;&lt;Document&gt;</h:NDCMSG_Payload>'),
      'malformed NDC payload',
    ],
  ])(
    'a garbled envelope (%s) gets a 400 NDC error in the envelope, naming what is wrong',
    async (_what, body, text) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(detectBinding(res.text)).toBe('ndcexchange');
      const rs = decodeAirShoppingRs(res.text);
      if (rs.kind !== 'error') throw new Error(res.text);
      expect(rs.errors[0].text).toContain(text);
    },
  );

  it.each([
    [
      'SchemaVersion YY.2018.1',
      { version: 'YY.2018.1' },
      '704',
      'NDCMSG_Header/Message/SchemaVersion YY.2018.1 is not NDC 17.2',
    ],
    ['SchemaType EDIFACT', { type: 'EDIFACT' }, '704', 'NDCMSG_Header/Message/SchemaType EDIFACT is not NDC'],
    [
      'a SellerID other than the AgencyID',
      { seller: 'TA-4411' },
      '705',
      `NDCMSG_Header/Sender/SellerID TA-4411 does not match the message's AgencyID ${AGENCY}`,
    ],
    [
      'a Recipient other than this airline',
      { company: 'XS' },
      '705',
      'NDCMSG_Header/Recipient/Company XS is not this airline (ZZ)',
    ],
  ])('a header with %s gets a 400 NDC error in the envelope naming it', async (_what, header, code, text) => {
    const res = await post(hubEnvelope(cdata(search()), header));
    expect(res.status).toBe(400);
    expect(detectBinding(res.text)).toBe('ndcexchange');
    expectValidXsd(unwrapSoap(res.text).text, 'AirShoppingRS');
    const rs = decodeAirShoppingRs(res.text);
    if (rs.kind !== 'error') throw new Error(res.text);
    expect(rs.errors[0]).toMatchObject({ code, text: expect.stringContaining(text) });
  });

  it('reads the header liberally (prefix of the version, case of the type); a payload without AgencyID acts for the seller it came from', async () => {
    const lenient = await post(hubEnvelope(cdata(search()), { type: 'ndc', version: 'ZZ.17.2' }));
    expect(lenient.status).toBe(200);
    expect(decodeAirShoppingRs(lenient.text).kind).toBe('day');
    // Sent by an aggregator (the hub's seller) rather than a travel agency: no AgencyID in the payload.
    const anonymous = search().replace(
      /<TravelAgencySender>[\s\S]*?<\/TravelAgencySender>/,
      '<AggregatorSender><AggregatorID>HUB01</AggregatorID></AggregatorSender>',
    );
    expectValidXsd(anonymous, 'AirShoppingRQ');
    const asSeller = await post(hubEnvelope(cdata(anonymous)));
    expect(asSeller.status).toBe(200);
    const rs = decodeAirShoppingRs(asSeller.text);
    if (rs.kind !== 'day') throw new Error(asSeller.text);
    // The shopping response is the seller's: the same agency prices from it (plain binding).
    const offer = rs.airlineOffers[0].offers[0];
    const priced = await http(`${airline.url}/retail/offerPrices`, {
      method: 'POST',
      headers: { Authorization: AUTH, 'Content-Type': NDC_TYPE_UTF8, Accept: NDC_TYPE_UTF8 },
      body: encodeOfferPriceRq({
        ...common(),
        offers: [selectAll(rs, offer.offerId)],
        passengers: withIndividuals(FAMILY, false),
      }),
    });
    expect(decodeOfferPriceRs(priced.text).kind).toBe('success');
  });

  it('the default hub namespace is the codec constant', () => {
    expect(wrapInBinding(search(), 'ndcexchange')).toContain(`xmlns:ndcx="${NDC_EXCHANGE_NS}"`);
  });
});
