import type { Client } from '@temporalio/client';
import { ApiError } from './api-error';
import { startFailure } from './start-failure';

describe('startFailure', () => {
  const client = (customAttributes: Record<string, number>) =>
    ({
      options: { namespace: 'default' },
      connection: { operatorService: { listSearchAttributes: async () => ({ customAttributes }) } },
    }) as unknown as Client;

  it('regression: a start refused for missing search attributes keeps the refusal as its cause', async () => {
    const refused = new Error('search attribute BookingStatus is not defined');
    const err = await startFailure(client({}), refused);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'SEARCH_ATTRIBUTES_MISSING', cause: refused });
    expect((err as ApiError).details).toEqual({
      missingSearchAttributes: ['BookingStatus', 'AgencyId', 'Route', 'BookingReference', 'Airline', 'Extras'],
    });
  });

  it('any other error is answered as it is', async () => {
    const other = new Error('boom');
    expect(await startFailure(client({}), other)).toBe(other);
  });
});
