import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { Payload } from '@temporalio/common';
import { defaultPayloadConverter } from '@temporalio/common';
import { developmentPayloadKey, EncryptionCodec, ENCRYPTED_ENCODING, loadPayloadKey } from './payload-codec';
import { decodePayloadsForUi, decodeRemoteCodecBody, maskCardData } from './ui-codec';

const KEY = Buffer.alloc(32, 7);
const text = (bytes: Uint8Array | null | undefined): string => Buffer.from(bytes ?? new Uint8Array()).toString('utf8');

const intentLike = {
  agency: { id: 'AG1' },
  payment: {
    card: {
      number: '4111111111111111',
      name: 'Ada',
      verificationCode: '737',
      expirationYear: 2030,
      expirationMonth: 1,
    },
  },
  note: 'pay with 5555555555554444 please',
  reference: '1234567890123',
};

describe('EncryptionCodec', () => {
  it('round-trips payloads and hides their content', async () => {
    const codec = new EncryptionCodec(KEY);
    const clear = defaultPayloadConverter.toPayload(intentLike);
    const [sealed] = await codec.encode([clear]);
    expect(text(sealed!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(text(sealed!.metadata!['encryption-key-id'])).toBe(codec.keyId);
    expect(Buffer.from(sealed!.data!).includes('4111111111111111')).toBe(false);
    expect(Buffer.from(sealed!.data!).includes('json/plain')).toBe(false);
    const [opened] = await codec.decode([sealed!]);
    expect(defaultPayloadConverter.fromPayload(opened!)).toEqual(intentLike);
  });

  it('uses a fresh IV per payload, passes unencrypted payloads through', async () => {
    const codec = new EncryptionCodec(KEY);
    const clear = defaultPayloadConverter.toPayload('same');
    const [a, b] = await codec.encode([clear, clear]);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
    expect(await codec.decode([clear])).toEqual([clear]);
  });

  it('refuses a payload of another key, and a tampered one', async () => {
    const [sealed] = await new EncryptionCodec(KEY).encode([defaultPayloadConverter.toPayload('x')]);
    await expect(new EncryptionCodec(Buffer.alloc(32, 8)).decode([sealed!])).rejects.toThrow(
      /^payload encrypted with key [0-9a-f]{16}, this process has key [0-9a-f]{16} \(check PAYLOAD_ENCRYPTION_KEY\)$/,
    );
    const data = Buffer.from(sealed!.data!);
    data[20] = data[20]! ^ 1;
    await expect(new EncryptionCodec(KEY).decode([{ ...sealed!, data }])).rejects.toThrow();
  });
});

describe('EncryptionCodec frames', () => {
  /** Seals `clear` bytes as the codec does (IV, ciphertext, tag) under KEY. */
  function seal(codec: EncryptionCodec, clear: Buffer): Payload {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', KEY, iv);
    const data = Buffer.concat([iv, cipher.update(clear), cipher.final(), cipher.getAuthTag()]);
    return {
      metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING), 'encryption-key-id': Buffer.from(codec.keyId) },
      data,
    };
  }
  /** The clear bytes of a sealed payload. */
  function open(sealed: Payload): Buffer {
    const bytes = Buffer.from(sealed.data!);
    const decipher = createDecipheriv('aes-256-gcm', KEY, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
  }

  it('compresses a large payload inside the encryption, leaves a small one framed as is', async () => {
    const codec = new EncryptionCodec(KEY);
    const large = defaultPayloadConverter.toPayload({
      offers: Array.from({ length: 40 }, (_, i) => ({ id: `OF-${i}`, price: '129.00' })),
    });
    const small = { metadata: { encoding: Buffer.from('binary/null') }, data: new Uint8Array() };
    const [a, b] = await codec.encode([large, small]);
    expect(open(a!)[0]).toBe(2);
    expect(a!.data!.length).toBeLessThan(large.data!.length / 2);
    expect(open(b!)[0]).toBe(1);
    const decoded = await codec.decode([a!, b!]);
    expect(decoded.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual([
      defaultPayloadConverter.fromPayload(large),
      undefined,
    ]);
  });

  it('still reads payloads written before the binary frames (JSON with base64 fields)', async () => {
    const codec = new EncryptionCodec(KEY);
    const clear = defaultPayloadConverter.toPayload(intentLike);
    const legacy = JSON.stringify({
      m: { encoding: Buffer.from(clear.metadata!.encoding!).toString('base64') },
      d: Buffer.from(clear.data!).toString('base64'),
    });
    const [opened] = await codec.decode([seal(codec, Buffer.from(legacy))]);
    expect(defaultPayloadConverter.fromPayload(opened!)).toEqual(intentLike);
  });

  it('refuses an unknown frame, a frame cut short, and a compressed one inflating past 4 MiB', async () => {
    const codec = new EncryptionCodec(KEY);
    await expect(codec.decode([seal(codec, Buffer.of(9, 0))])).rejects.toThrow(
      'encrypted payload of an unknown frame 9',
    );
    await expect(codec.decode([seal(codec, Buffer.of(1, 1, 0, 200))])).rejects.toThrow('encrypted payload cut short');
    const bomb = Buffer.concat([Buffer.of(2), deflateRawSync(Buffer.alloc(5 * 1024 * 1024))]);
    await expect(codec.decode([seal(codec, bomb)])).rejects.toThrow(
      'encrypted payload does not inflate (corrupt, or larger than 4 MiB)',
    );
  });
});

describe('loadPayloadKey', () => {
  it('reads a base64 32-byte key', () => {
    expect(loadPayloadKey({ PAYLOAD_ENCRYPTION_KEY: KEY.toString('base64') }).equals(KEY)).toBe(true);
  });

  it('defaults to the documented development key, refused in production', () => {
    expect(loadPayloadKey({}).equals(developmentPayloadKey())).toBe(true);
    expect(() => loadPayloadKey({ NODE_ENV: 'production' })).toThrow(
      'PAYLOAD_ENCRYPTION_KEY: must be set when NODE_ENV=production (base64 of 32 random bytes)',
    );
    expect(() =>
      loadPayloadKey({ NODE_ENV: 'production', PAYLOAD_ENCRYPTION_KEY: developmentPayloadKey().toString('base64') }),
    ).toThrow('PAYLOAD_ENCRYPTION_KEY: the development key is refused when NODE_ENV=production');
  });

  it('rejects keys that are not 32 bytes of base64', () => {
    expect(() => loadPayloadKey({ PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /exactly 32 bytes/,
    );
    expect(() => loadPayloadKey({ PAYLOAD_ENCRYPTION_KEY: 'not base64!' })).toThrow(/exactly 32 bytes/);
  });
});

describe('UI codec', () => {
  it('masks card number and CVV under card, Luhn-valid numbers anywhere, keeps the rest', () => {
    expect(maskCardData(intentLike)).toEqual({
      agency: { id: 'AG1' },
      payment: {
        card: { number: '****1111', name: 'Ada', verificationCode: '***', expirationYear: 2030, expirationMonth: 1 },
      },
      note: 'pay with 5555555555554444 please',
      reference: '1234567890123',
    });
    expect(maskCardData(['4000056655665556', 'ABC'])).toEqual(['****5556', 'ABC']);
  });

  it('masks a 3-D Secure CAVV wherever it appears (intent card, createOrder input)', () => {
    const input = {
      card: { authentication: { cavv: 'AAABBJg0VhI0VniQEjRWAAAAAAA=', eci: '05', transactionId: 'tx-1' } },
      authentication: { cavv: 'AAABBJg0VhI0VniQEjRWAAAAAAA=', eci: '05', transactionId: 'tx-1' },
    };
    expect(maskCardData(input)).toEqual({
      card: { authentication: { cavv: '***', eci: '05', transactionId: 'tx-1' } },
      authentication: { cavv: '***', eci: '05', transactionId: 'tx-1' },
    });
  });

  it('decrypts and masks for the Web UI', async () => {
    const codec = new EncryptionCodec(KEY);
    const sealed = await codec.encode([
      defaultPayloadConverter.toPayload(intentLike),
      defaultPayloadConverter.toPayload(null),
    ]);
    const shown: Payload[] = await decodePayloadsForUi(sealed, codec);
    expect(defaultPayloadConverter.fromPayload(shown[0]!)).toEqual(maskCardData(intentLike));
    expect(defaultPayloadConverter.fromPayload(shown[1]!)).toBeNull();
  });

  it('speaks the remote codec JSON protocol (base64 metadata and data)', async () => {
    const codec = new EncryptionCodec(KEY);
    const [sealed] = await codec.encode([
      defaultPayloadConverter.toPayload({ card: { number: '4111111111111111', verificationCode: '737' } }),
    ]);
    const body = {
      payloads: [
        {
          metadata: Object.fromEntries(
            Object.entries(sealed!.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')]),
          ),
          data: Buffer.from(sealed!.data!).toString('base64'),
        },
      ],
    };
    const out = await decodeRemoteCodecBody(body, codec);
    expect(Buffer.from(out.payloads[0]!.metadata!.encoding!, 'base64').toString()).toBe('json/plain');
    expect(JSON.parse(Buffer.from(out.payloads[0]!.data!, 'base64').toString())).toEqual({
      card: { number: '****1111', verificationCode: '***' },
    });
  });
});
