import * as fs from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger, createNestRoleLoggerFromEnv, loggerOptionsFromEnv, LoggerConfigError } from './logger';
import { redact, redactString, REDACTED } from './redact';

/** A logger writing JSON lines into an array. */
function capture(): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'test', destination, level: 'trace' }) };
}

/** Waits for pino's synchronous-ish stream writes to land. */
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createLogger redaction', () => {
  const intent = JSON.parse(
    fs.readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'one-way.json'), 'utf8'),
  );
  const card = intent.payment.card as { number: string; verificationCode: string };
  const apiKey = 'ndk_live_4f9a1c2e7b3d8e6f0a1b2c3d4e5f6a7b';
  // The CVV as a logged value: three digits alone would also be found in a time stamp or a pid.
  const secrets = [
    card.number,
    `"${card.verificationCode}"`,
    apiKey,
    'change-me-now',
    'dG9wLXNlY3JldA==',
    's3cr3t-vault',
  ];

  it('logs a full booking intent, its request headers and config without any secret', async () => {
    const { lines, logger } = capture();
    logger.info({ intent, workflowId: 'wf-1', correlationId: 'wf-1' }, 'booking intent received');
    logger.info(
      {
        req: {
          method: 'POST',
          url: '/bookings',
          headers: { authorization: `Bearer ${apiKey}`, 'x-api-key': apiKey, 'content-type': 'application/json' },
        },
      },
      'request',
    );
    logger.warn(
      {
        config: {
          AIRLINE_PASSWORD: 'change-me-now',
          PAYLOAD_ENCRYPTION_KEY: 'dG9wLXNlY3JldA==',
          vaultKey: 's3cr3t-vault',
        },
      },
      'config',
    );
    logger.error(
      {
        err: Object.assign(new Error(`card ${card.number} declined for Bearer ${apiKey}`), {
          cvv: card.verificationCode,
        }),
      },
      'failed',
    );
    logger.info(`retrying with card ${card.number.replace(/(\d{4})/g, '$1 ').trim()} and API key Bearer ${apiKey}`);
    logger.child({ apiKey }).info('child with a key');
    await flush();
    expect(lines).toHaveLength(6);
    const all = lines.join('\n');
    for (const secret of secrets) expect([secret, all.includes(secret)]).toEqual([secret, false]);
    // Nothing else was lost: the booking stays traceable.
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({
      level: 'info',
      service: 'test',
      msg: 'booking intent received',
      workflowId: 'wf-1',
      correlationId: 'wf-1',
    });
    expect(first.intent.payment.card).toMatchObject({
      number: REDACTED,
      verificationCode: REDACTED,
      name: 'ADA LOVELACE',
      expirationYear: 2031,
    });
    expect(first.intent.contacts[0].phones[0].number).toBe('2071234567');
    expect(first.intent.journey).toEqual(intent.journey);
    expect(JSON.parse(lines[1]!).req.headers).toEqual({
      authorization: REDACTED,
      'x-api-key': REDACTED,
      'content-type': 'application/json',
    });
    expect(JSON.parse(lines[3]!).err.message).toBe(`card ${REDACTED} declined for Bearer ${REDACTED}`);
  });

  it('masks only Luhn-valid card-length digit runs in strings', () => {
    expect(redactString('order 4000056655665556 ref 1234567890123')).toBe(`order ${REDACTED} ref 1234567890123`);
    expect(redactString('Authorization: Basic YWdlbmN5OnNlY3JldA==')).toBe(`Authorization: Basic ${REDACTED}`);
    expect(
      redactString('GET /bookings/b/authentication/return?token=abc_-1&result=approved&PaRes=v1.SPM-1.x&MD=SPM-1'),
    ).toBe(`GET /bookings/b/authentication/return?token=${REDACTED}&result=approved&PaRes=${REDACTED}&MD=SPM-1`);
    expect(redact({ a: [{ token: 'tok_1', password: '' }], n: 4000056655665556 })).toEqual({
      a: [{ token: REDACTED, password: '' }],
      n: REDACTED,
    });
  });

  it('cuts cycles instead of throwing', () => {
    const loop: Record<string, unknown> = { name: 'x' };
    loop.self = loop;
    expect(redact(loop)).toEqual({ name: 'x', self: '[Circular]' });
  });
});

describe('loggerOptionsFromEnv', () => {
  it('is pretty on a TTY outside production, JSON otherwise, and names a bad variable', () => {
    expect(loggerOptionsFromEnv('w', {}, true)).toEqual({ service: 'w', level: 'info', pretty: true });
    expect(loggerOptionsFromEnv('w', { NODE_ENV: 'production' }, true).pretty).toBe(false);
    expect(loggerOptionsFromEnv('w', {}, false).pretty).toBe(false);
    expect(loggerOptionsFromEnv('w', { LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' }, false)).toEqual({
      service: 'w',
      level: 'debug',
      pretty: true,
    });
    expect(() => loggerOptionsFromEnv('w', { LOG_LEVEL: 'loud' })).toThrow(
      new LoggerConfigError('LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'),
    );
  });
});

describe('createNestRoleLoggerFromEnv', () => {
  const nest = { variable: 'API_LOG', levels: ['error', 'warn'] as const };
  const level = (env: NodeJS.ProcessEnv) =>
    createNestRoleLoggerFromEnv('api', { ...nest, levels: [...nest.levels] }, env, false).level;

  it('uses LOG_LEVEL when set, else the Nest list variable when set, else info', () => {
    expect(level({ LOG_LEVEL: 'debug', API_LOG: 'error,warn' })).toBe('debug');
    expect(level({ API_LOG: 'error,warn' })).toBe('warn');
    expect(level({})).toBe('info');
    expect(level({ API_LOG: '' })).toBe('info');
  });
});
