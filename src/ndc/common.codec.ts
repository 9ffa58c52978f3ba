/**
 * Encoders and decoders for the parts shared by several NDC 17.2 messages:
 * the request preamble (root attributes, PointOfSale, Document, Party),
 * Parameters, Qualifier, passengers, contacts, errors and warnings.
 *
 * Every `encodeX(parent, value)` appends elements in XSD order to `parent`;
 * every `decodeX(node, path)` reads the element `node` found at `path`.
 */
import type {
  AggregatorParticipant,
  ContactInformation,
  ContactProvided,
  Individual,
  NdcError,
  NdcWarning,
  Parameters,
  Passenger,
  Phone,
  Qualifier,
  RequestCommon,
  SpecialFare,
} from './ndc.model';
import { NdcDecodeError } from './ndc-decode-error';
import {
  addEl,
  addNil,
  addOptText,
  attr,
  decodeHeader,
  decodeInt,
  many,
  one,
  opt,
  optText,
  optValue,
  reqAttr,
  reqText,
  startMessage,
  text,
  type EncodeOptions,
  type XMLBuilder,
  type XNode,
} from './xml';

// ------------------------------------------------------------- request preamble

/**
 * Starts a request message: root with header attributes, then PointOfSale
 * (when `pointOfSaleCountry` is set), Document and Party. Returns the root
 * element; the caller continues with the message's own children.
 */
export function encodeRequestCommon(root: string, req: RequestCommon, opts?: EncodeOptions): XMLBuilder {
  const el = startMessage(root, req, opts);
  if (req.pointOfSaleCountry !== undefined) {
    addEl(addEl(addEl(el, 'PointOfSale'), 'Location'), 'CountryCode', req.pointOfSaleCountry);
  }
  addEl(el, 'Document');
  encodeParty(el, req.party);
  return el;
}

/**
 * Reads what {@link encodeRequestCommon} writes, plus `Parameters` when the
 * root has one (AirShoppingRQ, OfferPriceRQ).
 */
export function decodeRequestCommon(root: XNode, path: string): RequestCommon {
  const req: RequestCommon = {
    ...decodeHeader(root, path),
    party: decodeParty(one(root, 'Party', path), `${path}/Party`),
  };
  const pos = opt(root, 'PointOfSale');
  const loc = pos === undefined ? undefined : opt(pos, 'Location');
  const country = loc === undefined ? undefined : optText(loc, 'CountryCode');
  if (country !== undefined && country !== '') req.pointOfSaleCountry = country;
  const params = opt(root, 'Parameters');
  if (params !== undefined) req.parameters = decodeParameters(params);
  return req;
}

// ------------------------------------------------------------------------ Party

/** Party: Sender/TravelAgencySender, Participants (omitted, nil when `[]`, or AggregatorParticipants), Recipient nil. */
export function encodeParty(parent: XMLBuilder, party: RequestCommon['party']): void {
  const el = addEl(parent, 'Party');
  if (party.senderKind !== undefined && party.senderKind !== 'TravelAgencySender') {
    throw new Error(`Party: only a TravelAgencySender can be encoded, not ${party.senderKind}`);
  }
  if (party.agencyId === undefined) throw new Error('Party: TravelAgencySender needs an agencyId');
  const tas = addEl(addEl(el, 'Sender'), 'TravelAgencySender');
  addOptText(tas, 'Name', party.name);
  addEl(tas, 'AgencyID', party.agencyId);
  if (party.participants !== undefined) {
    if (party.participants.length === 0) {
      addNil(el, 'Participants');
    } else {
      const ps = addEl(el, 'Participants');
      for (const p of party.participants) {
        const ap = addEl(addEl(ps, 'Participant'), 'AggregatorParticipant').att(
          'SequenceNumber',
          String(p.sequenceNumber),
        );
        addOptText(ap, 'Name', p.name);
        addEl(ap, 'AggregatorID', p.aggregatorId);
      }
    }
  }
  addNil(el, 'Recipient');
}

/**
 * Reads Party. A TravelAgencySender gives `agencyId` (required there) and
 * `name` (optional); another kind of sender gives only `senderKind`, its
 * element name.
 */
export function decodeParty(node: XNode, path: string): RequestCommon['party'] {
  const senderPath = `${path}/Sender`;
  const tasPath = `${senderPath}/TravelAgencySender`;
  const sender = one(node, 'Sender', path);
  const tas = opt(sender, 'TravelAgencySender');
  const party: RequestCommon['party'] = {};
  if (tas === undefined) {
    const kind =
      typeof sender === 'string'
        ? undefined
        : Object.keys(sender).find(
            (k) => !k.startsWith('@') && !k.startsWith('#') && !k.startsWith('{') && !k.includes(':'),
          );
    if (kind === undefined)
      throw new NdcDecodeError('MISSING', `${senderPath}/TravelAgencySender`, 'Sender names no party');
    party.senderKind = kind;
  } else {
    party.agencyId = reqText(tas, 'AgencyID', tasPath);
    const name = optText(tas, 'Name');
    if (name !== undefined && name !== '') party.name = name;
  }
  const ps = opt(node, 'Participants');
  if (ps !== undefined) {
    const participants: AggregatorParticipant[] = [];
    many(ps, 'Participant').forEach((p, i) => {
      const ap = opt(p, 'AggregatorParticipant');
      if (ap === undefined) return; // other participant kinds are not modelled
      const apPath = `${path}/Participants/Participant[${i + 1}]/AggregatorParticipant`;
      const participant: AggregatorParticipant = {
        sequenceNumber: decodeInt(attr(ap, 'SequenceNumber'), `${apPath}/@SequenceNumber`),
        aggregatorId: reqText(ap, 'AggregatorID', apPath),
      };
      const name = optText(ap, 'Name');
      if (name !== undefined && name !== '') participant.name = name;
      participants.push(participant);
    });
    party.participants = participants;
  }
  return party;
}

// ------------------------------------------------------------------- Parameters

/** `<Parameters>` with Languages/LanguageCode and Pricing/OverrideCurrency (AirShoppingRQ, OfferPriceRQ). */
export function encodeParameters(parent: XMLBuilder, p: Parameters): void {
  const el = addEl(parent, 'Parameters');
  if (p.languages !== undefined && p.languages.length > 0) {
    const langs = addEl(el, 'Languages');
    for (const l of p.languages) addEl(langs, 'LanguageCode', l);
  }
  if (p.overrideCurrency !== undefined) addEl(addEl(el, 'Pricing'), 'OverrideCurrency', p.overrideCurrency);
}

export function decodeParameters(node: XNode): Parameters {
  const p: Parameters = {};
  const langs = opt(node, 'Languages');
  if (langs !== undefined) p.languages = many(langs, 'LanguageCode').map(text);
  const pricing = opt(node, 'Pricing');
  const cur = pricing === undefined ? undefined : optText(pricing, 'OverrideCurrency');
  if (cur !== undefined && cur !== '') p.overrideCurrency = cur;
  return p;
}

// -------------------------------------------------------------------- Qualifier

/**
 * `<Qualifier>` with PromotionQualifiers/Code and SpecialFareQualifiers
 * (AirlineID, CompanyIndex?, then Contract or Account). The XSD allows one promotion code: more throw.
 */
export function encodeQualifier(parent: XMLBuilder, q: Qualifier): void {
  const el = addEl(parent, 'Qualifier');
  const codes = q.promotionCodes ?? [];
  if (codes.length > 1) throw new Error('NDC 17.2 allows one PromotionQualifiers/Code per Qualifier');
  if (codes.length === 1) addEl(addEl(el, 'PromotionQualifiers'), 'Code', codes[0]);
  if (q.specialFare !== undefined) {
    const special = q.specialFare;
    if (special.contract !== undefined && special.account !== undefined)
      throw new Error('SpecialFareQualifiers holds a Contract or an Account, not both (XSD choice)');
    const sf = addEl(el, 'SpecialFareQualifiers');
    addEl(sf, 'AirlineID', special.airlineId);
    addOptText(sf, 'CompanyIndex', special.companyIndex);
    addOptText(sf, 'Contract', special.contract);
    addOptText(sf, 'Account', special.account);
  }
}

export function decodeQualifier(node: XNode, path: string): Qualifier {
  const q: Qualifier = {};
  const promo = opt(node, 'PromotionQualifiers');
  if (promo !== undefined) q.promotionCodes = [reqText(promo, 'Code', `${path}/PromotionQualifiers`)];
  const sf = opt(node, 'SpecialFareQualifiers');
  if (sf !== undefined) {
    const sfPath = `${path}/SpecialFareQualifiers`;
    const special: SpecialFare = { airlineId: reqText(sf, 'AirlineID', sfPath) };
    for (const [key, name] of [
      ['companyIndex', 'CompanyIndex'],
      ['contract', 'Contract'],
      ['account', 'Account'],
    ] as const) {
      const value = optText(sf, name);
      if (value !== undefined) special[key] = value;
    }
    q.specialFare = special;
  }
  return q;
}

// ------------------------------------------------------------------- Passengers

/** `<PassengerList>` with one Passenger each. */
export function encodePassengerList(parent: XMLBuilder, passengers: readonly Passenger[]): void {
  const list = addEl(parent, 'PassengerList');
  for (const p of passengers) encodePassenger(list, p);
}

/** `<Passenger PassengerID>`: PTC, Individual, ContactInfoRef. */
export function encodePassenger(parent: XMLBuilder, p: Passenger): void {
  const el = addEl(parent, 'Passenger').att('PassengerID', p.passengerId);
  addOptText(el, 'PTC', p.ptc);
  if (p.individual !== undefined) encodeIndividual(el, p.individual);
  addOptText(el, 'ContactInfoRef', p.contactInfoRef);
}

export function encodeIndividual(parent: XMLBuilder, ind: Individual): void {
  const el = addEl(parent, 'Individual');
  addOptText(el, 'Birthdate', ind.birthdate);
  addOptText(el, 'NameTitle', ind.nameTitle);
  for (const g of ind.givenNames ?? []) addEl(el, 'GivenName', g);
  addEl(el, 'Surname', ind.surname);
}

/** Reads a `<PassengerList>` element. */
export function decodePassengerList(node: XNode, path: string): Passenger[] {
  return many(node, 'Passenger').map((p, i) => decodePassenger(p, `${path}/Passenger[${i + 1}]`));
}

export function decodePassenger(node: XNode, path: string): Passenger {
  const p: Passenger = { passengerId: reqAttr(node, 'PassengerID', path) };
  const ptc = optValue(node, 'PTC');
  if (ptc !== undefined) p.ptc = ptc;
  const ind = opt(node, 'Individual');
  if (ind !== undefined) p.individual = decodeIndividual(ind, `${path}/Individual`);
  const ref = optText(node, 'ContactInfoRef');
  if (ref !== undefined && ref !== '') p.contactInfoRef = ref;
  return p;
}

export function decodeIndividual(node: XNode, path: string): Individual {
  const ind: Individual = { surname: reqText(node, 'Surname', path) };
  const birthdate = optText(node, 'Birthdate');
  if (birthdate !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(birthdate)) {
      throw new NdcDecodeError(
        'INVALID_VALUE',
        `${path}/Birthdate`,
        `not a YYYY-MM-DD date: ${JSON.stringify(birthdate)}`,
      );
    }
    ind.birthdate = birthdate;
  }
  const title = optText(node, 'NameTitle');
  if (title !== undefined) ind.nameTitle = title;
  const given = many(node, 'GivenName');
  if (given.length > 0) ind.givenNames = given.map(text);
  return ind;
}

// --------------------------------------------------------------------- Contacts

/** `<ContactList>` with one ContactInformation each. */
export function encodeContactList(parent: XMLBuilder, contacts: readonly ContactInformation[]): void {
  const list = addEl(parent, 'ContactList');
  for (const c of contacts) encodeContactInformation(list, c);
}

/** `<ContactInformation ContactID>` with one ContactProvided per e-mail address or phone. */
export function encodeContactInformation(parent: XMLBuilder, c: ContactInformation): void {
  const el = addEl(parent, 'ContactInformation');
  if (c.contactId !== undefined) el.att('ContactID', c.contactId);
  for (const p of c.provided) {
    const cp = addEl(el, 'ContactProvided');
    if ('email' in p) {
      addEl(addEl(cp, 'EmailAddress'), 'EmailAddressValue', p.email);
    } else {
      const ph = addEl(cp, 'Phone');
      addOptText(ph, 'CountryDialingCode', p.phone.countryDialingCode);
      addOptText(ph, 'PhoneNumber', p.phone.phoneNumber);
    }
  }
}

/** Reads a `<ContactList>` element. */
export function decodeContactList(node: XNode, path: string): ContactInformation[] {
  return many(node, 'ContactInformation').map((c, i) =>
    decodeContactInformation(c, `${path}/ContactInformation[${i + 1}]`),
  );
}

/**
 * Reads ContactInformation. A ContactProvided holding several addresses
 * yields one entry per address; ContactNotProvided is skipped.
 */
export function decodeContactInformation(node: XNode, path: string): ContactInformation {
  const provided: ContactProvided[] = [];
  many(node, 'ContactProvided').forEach((cp, i) => {
    const cpPath = `${path}/ContactProvided[${i + 1}]`;
    many(cp, 'EmailAddress').forEach((e, j) => {
      provided.push({ email: reqText(e, 'EmailAddressValue', `${cpPath}/EmailAddress[${j + 1}]`) });
    });
    many(cp, 'Phone').forEach((ph) => {
      const phone: Phone = {};
      const dialing = optText(ph, 'CountryDialingCode');
      if (dialing !== undefined) phone.countryDialingCode = dialing;
      const number = optValue(ph, 'PhoneNumber');
      if (number !== undefined) phone.phoneNumber = number;
      provided.push({ phone });
    });
  });
  const c: ContactInformation = { provided };
  const id = attr(node, 'ContactID');
  if (id !== undefined && id !== '') c.contactId = id;
  return c;
}

// ------------------------------------------------------------ Errors, Warnings

/** `<Errors>` with `<Error Code ShortText Status>text</Error>` each. */
export function encodeErrors(parent: XMLBuilder, errors: readonly NdcError[]): void {
  const el = addEl(parent, 'Errors');
  for (const e of errors) {
    const x = addEl(el, 'Error');
    if (e.shortText !== undefined) x.att('ShortText', e.shortText);
    if (e.code !== undefined) x.att('Code', e.code);
    if (e.status !== undefined) x.att('Status', e.status);
    x.txt(e.text);
  }
}

/** Reads an `<Errors>` element (`Code` is optional, as in the XSD). */
export function decodeErrors(node: XNode, _path: string): NdcError[] {
  return many(node, 'Error').map((x) => {
    const e: NdcError = { text: text(x) };
    const code = attr(x, 'Code');
    if (code !== undefined && code !== '') e.code = code;
    const shortText = attr(x, 'ShortText');
    if (shortText !== undefined) e.shortText = shortText;
    const status = attr(x, 'Status');
    if (status !== undefined) e.status = status;
    return e;
  });
}

/** `<Warnings>` with `<Warning Code ShortText>text</Warning>` each. */
export function encodeWarnings(parent: XMLBuilder, warnings: readonly NdcWarning[]): void {
  const el = addEl(parent, 'Warnings');
  for (const w of warnings) {
    const x = addEl(el, 'Warning');
    if (w.shortText !== undefined) x.att('ShortText', w.shortText);
    if (w.code !== undefined) x.att('Code', w.code);
    x.txt(w.text);
  }
}

/** Reads a `<Warnings>` element. */
export function decodeWarnings(node: XNode): NdcWarning[] {
  return many(node, 'Warning').map((x) => {
    const w: NdcWarning = { text: text(x) };
    const code = attr(x, 'Code');
    if (code !== undefined) w.code = code;
    const shortText = attr(x, 'ShortText');
    if (shortText !== undefined) w.shortText = shortText;
    return w;
  });
}
