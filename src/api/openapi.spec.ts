import type { BookingState } from '../booking/booking.model';
import { FAILURE_TYPES } from '../booking/booking.failures';
import type { BookingView } from './common/api.schemas';
import { openApiComponentSchemas } from './openapi';

describe('OpenAPI response schemas derived from the zod schemas the types are inferred from', () => {
  const schemas = openApiComponentSchemas();
  const view = schemas.BookingView as any;

  it('regression: BookingView has settling, cancellation and the steps failure and reason', () => {
    expect(Object.keys(view.properties)).toEqual(
      expect.arrayContaining(['id', 'status', 'steps', 'settling', 'cancellation', 'retrieveError', 'links']),
    );
    expect(Object.keys(view.properties.settling.properties)).toEqual(['lookupIds', 'since', 'until', 'lookups']);
    expect(Object.keys(view.properties.cancellation.properties)).toEqual([
      'status',
      'requestedAt',
      'reason',
      'endedAt',
      'refund',
      'fee',
      'settledBy',
      'error',
    ]);
    const step = view.properties.steps.items;
    expect(step.properties.failure.enum).toEqual([...FAILURE_TYPES]);
    expect(step.properties.reason.type).toBe('string');
    expect(step.required).toEqual(['name', 'startedAt', 'attempts']);
  });

  it('regression: error.type is a failure type or WORKFLOW_<status>, not a plain string', () => {
    const type = view.properties.error.properties.type;
    expect(type.anyOf).toEqual([
      { type: 'string', enum: [...FAILURE_TYPES] },
      { type: 'string', pattern: '^WORKFLOW_[\\s\\S]{0,}$' },
    ]);
  });

  it('BatchView bookings carry refund and compensation, as the batch progress does', () => {
    const entry = (schemas.BatchView as any).properties.bookings.items;
    expect(Object.keys(entry.properties)).toEqual(['id', 'status', 'refund', 'compensation', 'links']);
  });

  it('the types are the schemas: a state field the schema lacks does not compile', () => {
    const state: BookingState = { status: 'RUNNING', steps: [] };
    // @ts-expect-error -- `seatMap` is not in bookingStateSchema (add it there, not to a copy)
    const drifted: BookingState = { ...state, seatMap: [] };
    const answer: BookingView = { id: 'b1', ...state, links: { self: '', order: '', approvePrice: '', cancel: '' } };
    expect([drifted.status, answer.id]).toEqual(['RUNNING', 'b1']);
  });
});
