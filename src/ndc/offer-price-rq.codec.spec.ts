import { expectValidXsd } from '../../test/support/xsd';
import { decodeError } from '../../test/support/ndc';
import { aLaCartePriceRq, roundTripPriceRq, tokenPriceRq, ukChildPriceRq } from './fixtures/offer-price-rq.fixtures';
import type { OfferPriceRq } from './ndc.model';
import { decodeOfferPriceRq, encodeOfferPriceRq } from './offer-price-rq.codec';
import { EXT_NS, NDC_NS } from './xml';

describe('OfferPriceRQ codec', () => {
  it.each<[string, OfferPriceRq]>([
    ['round trip, one Offer per direction, ADT ADT CHD INF, qualifiers', roundTripPriceRq],
    ['UK child with Individual birth dates', ukChildPriceRq],
    ['payment-form token metadata', tokenPriceRq],
    ['a flight offer and two à-la-carte offers of other responses (bag, seat)', aLaCartePriceRq],
  ])('%s: encodes schema-valid XML that decodes to the same model', (_name, model) => {
    const xml = encodeOfferPriceRq(model);
    expectValidXsd(xml, 'OfferPriceRQ');
    expect(decodeOfferPriceRq(xml)).toStrictEqual(model);
  });

  it('writes offer attributes, space-separated passenger refs and the token in the extension namespace', () => {
    const xml = encodeOfferPriceRq(tokenPriceRq);
    expect(xml).toContain(`xmlns:ns2="${EXT_NS}"`);
    expect(xml).toContain(
      '<Query><Offer OfferID="OFFER__PRICED_1" Owner="XS" ResponseID="PR-20261121-0003">' +
        '<OfferItem OfferItemID="OI__1"><PassengerRefs>PAX__ADT01</PassengerRefs></OfferItem></Offer></Query>',
    );
    expect(xml).toContain(
      '<Metadata><Other><OtherMetadata><PaymentFormMetadatas><PaymentFormMetadata MetadataKey="PFM__CARD1">' +
        '<AugmentationPoint><AugPoint><ns2:Token><ns2:Number>tok_7d1e0c5b9a2f4e61</ns2:Number></ns2:Token></AugPoint></AugmentationPoint>' +
        '</PaymentFormMetadata></PaymentFormMetadatas></OtherMetadata></Other></Metadata>',
    );
    expect(encodeOfferPriceRq(roundTripPriceRq)).toContain('<PassengerRefs>PAX__ADT01 PAX__ADT02</PassengerRefs>');
  });

  it('reads several Offers under any prefix, with white space and comments between them', () => {
    const xml =
      `<n:OfferPriceRQ xmlns:n="${NDC_NS}" Version="17.2"><n:Document/><n:Party><n:Sender><n:TravelAgencySender>` +
      '<n:AgencyID>SAGA01</n:AgencyID></n:TravelAgencySender></n:Sender></n:Party><n:Query>\n' +
      '  <n:Offer OfferID="OF1" Owner="XS" ResponseID="SR-1"><n:OfferItem OfferItemID="OI1"><n:PassengerRefs>PAX1</n:PassengerRefs></n:OfferItem></n:Offer>\n' +
      '  <!-- the bag -->\n' +
      '  <n:Offer OfferID="ALC__SL-1" Owner="XS" ResponseID="SL-1"><n:OfferItem OfferItemID="ALC-1"><n:PassengerRefs>PAX1</n:PassengerRefs>' +
      '<n:ALaCarteSelection><n:Quantity>1</n:Quantity></n:ALaCarteSelection></n:OfferItem></n:Offer>\n' +
      '</n:Query><n:DataLists><n:PassengerList><n:Passenger PassengerID="PAX1"><n:PTC>ADT</n:PTC></n:Passenger></n:PassengerList></n:DataLists></n:OfferPriceRQ>';
    expectValidXsd(xml, 'OfferPriceRQ');
    expect(
      decodeOfferPriceRq(xml).offers.map((o) => [o.offerId, o.responseId, o.offerItems[0].aLaCarteSelection]),
    ).toStrictEqual([
      ['OF1', 'SR-1', undefined],
      ['ALC__SL-1', 'SL-1', { quantity: 1 }],
    ]);
  });

  it('reads the token under any prefix bound to the extension namespace, ignoring other extension content', () => {
    const xml = encodeOfferPriceRq(tokenPriceRq)
      .replace(`xmlns:ns2="${EXT_NS}"`, `xmlns:ext="${EXT_NS}"`)
      .replace(
        '<ns2:Token><ns2:Number>tok_7d1e0c5b9a2f4e61</ns2:Number></ns2:Token>',
        '<ext:Card>visa</ext:Card><ext:Token><ext:Number>tok_7d1e0c5b9a2f4e61</ext:Number></ext:Token>',
      );
    expect(decodeOfferPriceRq(xml).paymentForms).toStrictEqual([{ key: 'PFM__CARD1', token: 'tok_7d1e0c5b9a2f4e61' }]);
  });

  it('ignores a token element of another namespace (unknown extension content), and reads it with that namespace as option', () => {
    const xml = encodeOfferPriceRq(tokenPriceRq).replace(`xmlns:ns2="${EXT_NS}"`, 'xmlns:ns2="urn:somebody-else"');
    expect(decodeOfferPriceRq(xml).paymentForms).toStrictEqual([]);
    expect(decodeOfferPriceRq(xml, { extensionNamespace: 'urn:somebody-else' }).paymentForms).toStrictEqual(
      tokenPriceRq.paymentForms,
    );
  });

  it('decodes without DataLists, Qualifier or Metadata', () => {
    const xml = `<OfferPriceRQ xmlns="${NDC_NS}" Version="17.2" Target="Test" TimeStamp="2026-11-21T06:00:00Z"><Document/>
      <Party><Sender><TravelAgencySender><Name>A</Name><AgencyID>B</AgencyID></TravelAgencySender></Sender></Party>
      <Query><Offer OfferID="O1" Owner="XS" ResponseID="R1"><OfferItem OfferItemID="I1"><PassengerRefs>P1</PassengerRefs></OfferItem></Offer></Query>
    </OfferPriceRQ>`;
    expect(decodeOfferPriceRq(xml)).toStrictEqual({
      target: 'Test',
      version: '17.2',
      timeStamp: '2026-11-21T06:00:00Z',
      party: { name: 'A', agencyId: 'B' },
      offers: [
        { offerId: 'O1', owner: 'XS', responseId: 'R1', offerItems: [{ offerItemId: 'I1', passengerRefs: ['P1'] }] },
      ],
      passengers: [],
    });
  });

  it('names the path of a missing ResponseID and of missing PassengerRefs', () => {
    const xml = encodeOfferPriceRq(roundTripPriceRq);
    const noResponse = decodeError(() =>
      decodeOfferPriceRq(xml.replace('Owner="XS" ResponseID="SR-20261121-0001">', 'Owner="XS">')),
    );
    expect(noResponse.code).toBe('MISSING');
    expect(noResponse.path).toBe('/OfferPriceRQ/Query/Offer[1]/@ResponseID');
    const noRefs = decodeError(() =>
      decodeOfferPriceRq(
        xml.replace(
          '<OfferItem OfferItemID="OI__RET_CHD"><PassengerRefs>PAX__CHD01</PassengerRefs>',
          '<OfferItem OfferItemID="OI__RET_CHD">',
        ),
      ),
    );
    expect(noRefs.code).toBe('MISSING');
    expect(noRefs.path).toBe('/OfferPriceRQ/Query/Offer[2]/OfferItem[2]/PassengerRefs');
  });

  it('refuses an Individual without Surname, naming the passenger', () => {
    const xml = encodeOfferPriceRq(ukChildPriceRq).replace(
      '<Individual><Birthdate>2017-09-30</Birthdate><Surname>Smith</Surname>',
      '<Individual><Birthdate>2017-09-30</Birthdate>',
    );
    const err = decodeError(() => decodeOfferPriceRq(xml));
    expect(err.code).toBe('MISSING');
    expect(err.path).toBe('/OfferPriceRQ/DataLists/PassengerList/Passenger[2]/Individual/Surname');
  });

  it('decodes a Query without any Offer, and no Query at all (both valid in the XSD), with offers []', () => {
    const xml = encodeOfferPriceRq(tokenPriceRq).replace(/<Query>.*<\/Query>/, '<Query/>');
    expect(decodeOfferPriceRq(xml).offers).toStrictEqual([]);
    expect(decodeOfferPriceRq(xml.replace('<Query/>', '')).offers).toStrictEqual([]);
  });
});
