/**
 * Every message type as the schema allows it, walked branch by branch and at random
 * (test/ndc/xsd-instance.ts `xsdWalk`): the systematic walks take every `xs:choice` branch, every
 * optional element present and absent, repetitions of one and two, IDREFS naming one id and
 * several, and the NDC namespace bound again on inner elements; the property-based walks draw
 * those decisions from fast-check (seeded, so a failure names its seed and replays). Every
 * instance is validated with xmllint (one run per message type) and then decoded.
 *
 * Decoding an XSD-valid instance must not fail: a refusal of any of them fails the test. Elements
 * the 17.2 schema makes optional are optional in the model; logic that needs one asks for it where
 * it uses it (`requireElement`, `requireMoney`, `requirePtc` in src/ndc/require-element.ts).
 */
import fc from 'fast-check';
import * as ndc from '../../src/ndc';
import { validateXsdMany } from '../support/xsd';
import { branchWalk, randomWalk, xsdWalk } from './xsd-instance';

const DECODERS: Record<string, (xml: string) => unknown> = {
  AirShoppingRQ: (x) => ndc.decodeAirShoppingRq(x),
  AirShoppingRS: (x) => ndc.decodeAirShoppingRs(x),
  OfferPriceRQ: (x) => ndc.decodeOfferPriceRq(x),
  OfferPriceRS: (x) => ndc.decodeOfferPriceRs(x),
  OrderCreateRQ: (x) => ndc.decodeOrderCreateRq(x),
  OrderRetrieveRQ: (x) => ndc.decodeOrderRetrieveRq(x),
  OrderViewRS: (x) => ndc.decodeOrderViewRs(x),
  OrderCancelRQ: (x) => ndc.decodeOrderCancelRq(x),
  OrderCancelRS: (x) => ndc.decodeOrderCancelRs(x),
  OrderReshopRQ: (x) => ndc.decodeOrderReshopRq(x),
  OrderReshopRS: (x) => ndc.decodeOrderReshopRs(x),
  OrderChangeRQ: (x) => ndc.decodeOrderChangeRq(x),
  OrderChangeNotif: (x) => ndc.decodeOrderChangeNotif(x),
  ServiceListRQ: (x) => ndc.decodeServiceListRq(x),
  SeatAvailabilityRQ: (x) => ndc.decodeSeatAvailabilityRq(x),
};

/** Systematic walks per message type (at least the widest choice of the schemas: 12 covers them with both optional settings). */
const BRANCH_WALKS = 12;
/** Property-based walks per message type (`NDC_WALK_RUNS` to change it). */
const RANDOM_WALKS = Number(process.env.NDC_WALK_RUNS ?? 200);
/** fast-check seed (`NDC_WALK_SEED` to replay another run). */
const SEED = Number(process.env.NDC_WALK_SEED ?? 20171702);

/** Decodes `xml`; a refusal fails with the decoder's message (code and path) and the instance. */
function decode(root: string, xml: string): void {
  let decoded: { version?: string };
  try {
    decoded = DECODERS[root](xml) as { version?: string };
  } catch (e) {
    const err = e as { code?: string; message: string };
    throw new Error(`${root} does not decode (${String(err.code)}): ${err.message}\n${xml}`);
  }
  if (decoded.version !== '17.2') throw new Error(`${root} decoded version ${String(decoded.version)}`);
}

/** Validates every instance with xmllint (one run), then decodes each: all must pass both. */
function checkAll(root: string, xmls: string[]): void {
  validateXsdMany(xmls, root).forEach((r, i) => {
    if (!r.valid) throw new Error(`walk ${i} of ${root} is not valid:\n${r.errors.slice(0, 5).join('\n')}\n${xmls[i]}`);
    decode(root, xmls[i]);
  });
}

describe('schema walks of every message type validate and decode', () => {
  it.each(Object.keys(DECODERS))('%s: every branch, optional present and absent, 1 and 2 repetitions', (root) => {
    const xmls = Array.from({ length: BRANCH_WALKS }, (_, k) => xsdWalk(root, branchWalk(k)));
    // Bound again on inner elements under fresh prefixes, IDREFS naming several ids.
    expect(xmls.some((x) => new RegExp(`<p\\d+:\\w+ xmlns:p\\d+="${ndc.NDC_NS}"`).test(x))).toBe(true);
    expect(() => checkAll(root, xmls)).not.toThrow();
  });

  it.each(Object.keys(DECODERS))('%s: property-based walks (fast-check, seeded)', (root) => {
    const streams = fc.sample(fc.infiniteStream(fc.nat()), { seed: SEED, numRuns: RANDOM_WALKS });
    const xmls = streams.map((s) =>
      xsdWalk(
        root,
        randomWalk(() => s.next().value as number),
      ),
    );
    expect(() => checkAll(root, xmls)).not.toThrow();
  });
});

describe('the walks', () => {
  it('take several ids in IDREFS, several repetitions, and leave optional content out', () => {
    const full = xsdWalk('OfferPriceRS', branchWalk(2));
    expect(full).toMatch(/refs="REF1 REF2"|>REF1 REF2</);
    const bare = xsdWalk('OfferPriceRS', branchWalk(1));
    expect(bare.length).toBeLessThan(full.length / 10);
  });
});
