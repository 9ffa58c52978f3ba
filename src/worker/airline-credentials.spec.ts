import pino from 'pino';
import { NdcHttpError, NdcTransportError } from '../ndc-client';
import { AirlineCredentials, CREDENTIALS_RECHECK_MS } from './airline-credentials';

const profile = {
  code: 'ZZ',
  passwordEnv: 'ZZ_AIRLINE_PASSWORD',
  client: {
    retailBaseUrl: 'http://airline',
    paymentBaseUrl: 'http://airline',
    username: 'agency',
    password: 'secret-value',
  },
};

/** A logger whose lines are kept. */
function capturing() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('AirlineCredentials', () => {
  it('accepts credentials the airline lets in (a "no such order" answer)', async () => {
    const { logger, lines } = capturing();
    const check = new AirlineCredentials(profile, { ordersByShoppingResponse: async () => undefined }, logger);
    expect(await check.check()).toMatchObject({ status: 'accepted' });
    expect(lines).toEqual([]);
  });

  it('logs a refusal loudly, naming the airline, the user and the variable of the password (never the password)', async () => {
    const { logger, lines } = capturing();
    const refuse = async () => {
      throw new NdcHttpError(401, 'HTTP 401');
    };
    const check = new AirlineCredentials(profile, { ordersByShoppingResponse: refuse }, logger);
    expect(await check.check()).toMatchObject({ status: 'refused', detail: 'HTTP 401' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      airline: 'ZZ',
      msg: "airline ZZ refuses the worker's credentials (user agency, the password in ZZ_AIRLINE_PASSWORD): every booking there fails AIRLINE_CREDENTIALS_REJECTED until they are fixed",
    });
    expect(JSON.stringify(lines)).not.toContain('secret-value');
  });

  it('tells an unreachable airline from a refusal, and checks again when the last check is a minute old', async () => {
    let now = 0;
    let calls = 0;
    const down = async () => {
      calls += 1;
      throw new NdcTransportError('CONNECT', 'connect ECONNREFUSED', false);
    };
    const check = new AirlineCredentials(profile, { ordersByShoppingResponse: down }, capturing().logger, () => now);
    // Never checked yet: the health starts a check and shows what it has.
    expect(check.current()).toEqual({ status: 'unchecked' });
    await check.check();
    expect(check.current()).toMatchObject({ status: 'unreachable', detail: 'connect ECONNREFUSED' });
    expect(calls).toBe(1);
    now = CREDENTIALS_RECHECK_MS - 1;
    check.current();
    expect(calls).toBe(1);
    now = CREDENTIALS_RECHECK_MS;
    check.current();
    expect(calls).toBe(2);
  });
});
