import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedAirlines, ensureNotifyPasswords } from '../../scripts/embedded-airlines';
import { loadAirlineConfig } from '../../src/airline/airline.config';
import { loadAirlineProfiles } from '../../src/ndc-client/airline-profile';

describe('npm start: the servicing settings of its embedded airlines', () => {
  const ports = { zz: 4010, yy: 4011, zzMetrics: '9466', yyMetrics: '9467' };

  it('passes AIRLINE_HOLD_MS, AIRLINE_PRICE_GUARANTEE_MS, AIRLINE_CHANGE_OFFER_TTL_MS and AIRLINE_CHANGE_ACTION_MS to every airline when set', () => {
    const env = {
      AIRLINE_HOLD_MS: '5000',
      AIRLINE_PRICE_GUARANTEE_MS: '2000',
      AIRLINE_CHANGE_OFFER_TTL_MS: '3000',
      AIRLINE_CHANGE_ACTION_MS: '60000',
    };
    for (const airline of embeddedAirlines(ports, '/tmp/data', env)) expect(airline.env).toMatchObject(env);
  });

  it('passes none when unset (each airline keeps its defaults)', () => {
    for (const airline of embeddedAirlines(ports, '/tmp/data', {}))
      expect(Object.keys(airline.env)).not.toContain('AIRLINE_HOLD_MS');
  });
});

describe('npm start: the embedded airlines push their changes to the API', () => {
  const ports = { zz: 4010, yy: 4011, zzMetrics: '9466', yyMetrics: '9467' };
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('each airline pushes to its notification route in its binding with its password, and its profile names the variable holding it', () => {
    const passwords = { ZZ: 'zz-push', YY: 'yy-push' };
    const airlines = embeddedAirlines(ports, '/tmp/data', {}, { apiPort: 3999, passwords });
    expect(airlines.map((a) => [a.code, a.notifySecret, a.entry.pushesNotifications, a.entry.notifications])).toEqual([
      [
        'ZZ',
        { name: 'ZZ_AIRLINE_NOTIFY_PASSWORD', value: 'zz-push' },
        true,
        { passwordEnv: 'ZZ_AIRLINE_NOTIFY_PASSWORD' },
      ],
      [
        'YY',
        { name: 'YY_AIRLINE_NOTIFY_PASSWORD', value: 'yy-push' },
        true,
        { passwordEnv: 'YY_AIRLINE_NOTIFY_PASSWORD' },
      ],
    ]);
    const [zz, yy] = airlines.map((a) => loadAirlineConfig({ ...a.env, AIRLINE_LOG: 'none' }).notify);
    expect([zz, yy]).toEqual([
      {
        url: 'http://127.0.0.1:3999/airlines/ZZ/notifications',
        username: 'ZZ',
        password: 'zz-push',
        binding: 'plain',
        retryMs: 1000,
      },
      {
        url: 'http://127.0.0.1:3999/airlines/YY/notifications',
        username: 'YY',
        password: 'yy-push',
        binding: 'soap11',
        retryMs: 1000,
      },
    ]);
    // The airlines file (what the API reads) holds no password, and its profiles read.
    const text = JSON.stringify({ airlines: airlines.map((a) => a.entry) });
    expect(text).not.toContain('zz-push');
    const file = join(dir, 'airlines.json');
    writeFileSync(file, text);
    const profiles = loadAirlineProfiles({ AIRLINES_FILE: file }, { credentials: false });
    expect(profiles.map((p) => [p.code, p.pushesNotifications, p.notifications])).toEqual([
      ['ZZ', true, { username: 'ZZ', passwordEnv: 'ZZ_AIRLINE_NOTIFY_PASSWORD' }],
      ['YY', true, { username: 'YY', passwordEnv: 'YY_AIRLINE_NOTIFY_PASSWORD' }],
    ]);
  });

  it('generates the push passwords once, keeps them (mode 600) and reuses them; a variable overrides', () => {
    const file = join(dir, 'airline-notify-secrets.json');
    const first = ensureNotifyPasswords(file);
    expect(first.ZZ).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first.YY).not.toBe(first.ZZ);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ensureNotifyPasswords(file)).toEqual(first);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
    expect(ensureNotifyPasswords(file, { ZZ_AIRLINE_NOTIFY_PASSWORD: 'mine' })).toEqual({ ZZ: 'mine', YY: first.YY });
  });
});
