import type { z } from 'zod/v4';
import { oneWayIntent } from '../../test/api/intent.fixture';
import type { BookingExtras } from './booking.extras';
import type { BookingIntent, SubmittedIntent } from './booking.model';
import { bookingIntentSchema, intentExtrasSchema, submittedIntentSchema } from './booking.schemas';

/** True when `A` and `B` are the same type (not merely assignable: an extra optional field differs). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

describe('booking intent schemas (the one source of BookingIntent)', () => {
  const NOW = new Date('2026-11-21T10:00:00Z');

  it('the intent the saga books has its agency settled; a submitted one may leave agency.id out', () => {
    const intent: BookingIntent = oneWayIntent({ now: NOW });
    expect(bookingIntentSchema.parse(intent)).toEqual(intent);
    const submitted: SubmittedIntent = { ...intent, agency: { name: 'Test Travel' } };
    expect(submittedIntentSchema.parse(submitted)).toEqual(submitted);
    expect(bookingIntentSchema.safeParse(submitted).error?.issues.map((i) => i.path)).toEqual([['agency', 'id']]);
  });

  it('both refuse an unknown field, also inside the agency', () => {
    const intent = { ...oneWayIntent({ now: NOW }), agency: { name: 'Test Travel', colour: 'blue' } };
    expect(submittedIntentSchema.safeParse(intent).error?.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['colour'], path: ['agency'] }),
    ]);
  });

  it('the extras inferred from the schema are exactly BookingExtras, which the saga uses', () => {
    const same: Same<z.infer<typeof intentExtrasSchema>, BookingExtras> = true;
    const extras: BookingIntent['extras'] = { seats: { mode: 'choose', preference: 'aisle' } };
    expect([same, intentExtrasSchema.parse(extras)]).toEqual([true, extras]);
  });
});
