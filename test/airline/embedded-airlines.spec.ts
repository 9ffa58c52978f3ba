import { embeddedAirlines } from '../../scripts/embedded-airlines';

describe('npm start: the servicing settings of its embedded airlines', () => {
  const ports = { zz: 4010, yy: 4011, zzMetrics: '9466', yyMetrics: '9467' };

  it('passes AIRLINE_HOLD_MS, AIRLINE_PRICE_GUARANTEE_MS and AIRLINE_CHANGE_OFFER_TTL_MS to every airline when set', () => {
    const env = { AIRLINE_HOLD_MS: '5000', AIRLINE_PRICE_GUARANTEE_MS: '2000', AIRLINE_CHANGE_OFFER_TTL_MS: '3000' };
    for (const airline of embeddedAirlines(ports, '/tmp/data', env)) expect(airline.env).toMatchObject(env);
  });

  it('passes none when unset (each airline keeps its defaults)', () => {
    for (const airline of embeddedAirlines(ports, '/tmp/data', {}))
      expect(Object.keys(airline.env)).not.toContain('AIRLINE_HOLD_MS');
  });
});
