/**
 * Codec benchmark (`npm run bench -- codec`): a large day-search AirShoppingRS
 * (round trip, ADT/ADT/CHD/INF plus a second child type, many offers),
 * generated with our encoder, then, in the same run:
 *
 * - decode: `decodeAirShoppingRs` vs a bare fast-xml-parser `XMLParser`
 *   (default options) parse of the same bytes; target ratio <= 1.5;
 * - encode: `encodeAirShoppingRs` vs fast-xml-parser's `XMLBuilder`
 *   serialising the equivalent JS object tree (built once, outside the
 *   timing); target ratio <= 3.
 *
 * Each side gets warm-up runs, then the two sides run back to back for
 * `ITERATIONS` rounds; the ratio printed is the median of the per-round
 * ratios (machine load hits both sides of a round alike), next to each side's
 * median time and MB/s.
 * Environment: `CODEC_BENCH_OFFERS` (offers per direction and price class,
 * default 40), `CODEC_BENCH_ITERATIONS` (default 40).
 */
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { decodeAirShoppingRs, encodeAirShoppingRs } from '../src/ndc/air-shopping-rs.codec';
import {
  dayOffer,
  dayRoundTripRs,
  type Direction,
  type PriceClassCode,
} from '../src/ndc/fixtures/air-shopping-rs.fixtures';
import type { AirShoppingRs, Offer } from '../src/ndc/ndc.model';

const OFFERS = Number(process.env.CODEC_BENCH_OFFERS ?? 40);
const ITERATIONS = Number(process.env.CODEC_BENCH_ITERATIONS ?? 40);
const WARMUP = 8;

type Day = Extract<AirShoppingRs, { kind: 'day' }>;

/** The day fixture with `n` offers per direction and price class (4n offers, 3 items each). */
export function largeDayRs(n: number): Day {
  const base = dayRoundTripRs as Day;
  const offers: Offer[] = [];
  for (let i = 1; i <= n; i++) {
    for (const d of ['out', 'ret'] as Direction[]) {
      for (const pc of ['LIGHT', 'PLUS'] as PriceClassCode[]) {
        offers.push(dayOffer(`OFFER__${i}_${d.toUpperCase()}_${pc}`, d, pc));
      }
    }
  }
  return { ...base, airlineOffers: [{ offers }] };
}

function now(): bigint {
  return process.hrtime.bigint();
}

function ms(from: bigint): number {
  return Number(now() - from) / 1e6;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Times `ours` and `theirs` back to back in each round; returns their median
 * durations in ms and the median of the per-round ratios (a load spike on the
 * shared machine hits both sides of a round alike, so this ratio is the stable figure).
 */
function compare(ours: () => unknown, theirs: () => unknown): { ours: number; theirs: number; ratio: number } {
  for (let i = 0; i < WARMUP; i++) {
    ours();
    theirs();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    let t = now();
    ours();
    a.push(ms(t));
    t = now();
    theirs();
    b.push(ms(t));
  }
  return { ours: median(a), theirs: median(b), ratio: median(a.map((x, i) => x / b[i])) };
}

function line(label: string, msMedian: number, bytes: number): string {
  const mbs = bytes / (1024 * 1024) / (msMedian / 1000);
  return `  ${label.padEnd(34)} ${msMedian.toFixed(2).padStart(8)} ms  ${mbs.toFixed(1).padStart(7)} MB/s`;
}

export interface CodecBenchResult {
  bytes: number;
  offers: number;
  decode: { ours: number; bare: number; ratio: number };
  encode: { ours: number; bare: number; ratio: number };
}

/** Runs the benchmark and prints the figures; returns them for callers that want to assert. */
export async function run(): Promise<CodecBenchResult> {
  const model = largeDayRs(OFFERS);
  const xml = encodeAirShoppingRs(model);
  const bytes = Buffer.byteLength(xml, 'utf8');
  const offers = model.airlineOffers[0].offers.length;

  // Sanity: what we measure is a faithful round trip.
  const back = decodeAirShoppingRs(xml);
  if (back.kind !== 'day' || back.airlineOffers[0].offers.length !== offers)
    throw new Error('codec bench: round trip lost offers');

  const bareParser = new XMLParser();
  const dec = compare(
    () => decodeAirShoppingRs(xml),
    () => bareParser.parse(xml),
  );

  // The equivalent JS object tree for fast-xml-parser's builder, built once outside the timing.
  const treeOpts = {
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    parseAttributeValue: false,
  };
  const tree: unknown = new XMLParser(treeOpts).parse(xml);
  const builder = new XMLBuilder({ ...treeOpts, suppressEmptyNode: true });
  const built = builder.build(tree) as string;
  const enc = compare(
    () => encodeAirShoppingRs(model),
    () => builder.build(tree),
  );

  const result: CodecBenchResult = {
    bytes,
    offers,
    decode: { ours: dec.ours, bare: dec.theirs, ratio: dec.ratio },
    encode: { ours: enc.ours, bare: enc.theirs, ratio: enc.ratio },
  };
  const out = [
    `AirShoppingRS day search: ${(bytes / 1024).toFixed(0)} KiB, ${offers} offers, ${ITERATIONS} timed runs after ${WARMUP} warm-ups (medians)`,
    line('decodeAirShoppingRs', dec.ours, bytes),
    line('fast-xml-parser XMLParser.parse', dec.theirs, bytes),
    `  decode ratio ${result.decode.ratio.toFixed(2)}x (median of per-round ratios; target <= 1.5x) ${result.decode.ratio <= 1.5 ? 'OK' : 'MISSED'}`,
    line('encodeAirShoppingRs', enc.ours, bytes),
    line('fast-xml-parser XMLBuilder.build', enc.theirs, Buffer.byteLength(built, 'utf8')),
    `  encode ratio ${result.encode.ratio.toFixed(2)}x (median of per-round ratios; target <= 3x) ${result.encode.ratio <= 3 ? 'OK' : 'MISSED'}`,
  ];
  process.stdout.write(out.join('\n') + '\n');
  return result;
}
