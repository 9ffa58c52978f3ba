/**
 * Remote payload codec for the Temporal Web UI (and `temporal --codec-endpoint`): POST
 * `/codec/decode` and `/codec/encode` with `{payloads: [{metadata: {k: base64}, data: base64}]}`.
 * Decoding masks card data, so the UI shows readable payloads without card numbers or CVVs.
 * CORS for the UI origin is set in `configureApp`.
 */
import { Body, Controller, Headers, HttpCode, Inject, Optional, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Payload } from '@temporalio/common';
import { UI_PAYLOAD_CODEC } from '../api.tokens';
import { LoopbackDevOpen, RequireRole } from '../auth/auth.decorators';
import { ApiError } from '../common/api-error';
import { Authenticated, ProblemResponses } from '../common/openapi.decorators';

/** What `/codec` needs: decode for display (masking card data) and encode. */
export interface UiPayloadCodec {
  decode(payloads: Payload[], namespace?: string): Promise<Payload[]>;
  encode(payloads: Payload[], namespace?: string): Promise<Payload[]>;
}

/** A payload in proto3 JSON form: bytes as base64. */
export interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** JSON -> Payload; throws INVALID_REQUEST naming the bad path. */
export function fromJson(body: unknown): Payload[] {
  const bad = (path: string, message: string) =>
    new ApiError('INVALID_REQUEST', 'Invalid codec request', [{ path, message }]);
  const payloads = (body as { payloads?: unknown } | null)?.payloads;
  if (!Array.isArray(payloads)) throw bad('payloads', 'must be an array');
  return payloads.map((p: unknown, i) => {
    if (p === null || typeof p !== 'object') throw bad(`payloads[${i}]`, 'must be an object');
    const { metadata = {}, data = '' } = p as JsonPayload;
    if (typeof data !== 'string' || !B64.test(data)) throw bad(`payloads[${i}].data`, 'must be base64');
    if (metadata === null || typeof metadata !== 'object') throw bad(`payloads[${i}].metadata`, 'must be an object');
    const meta: Record<string, Uint8Array> = {};
    for (const [k, v] of Object.entries(metadata)) {
      if (typeof v !== 'string' || !B64.test(v)) throw bad(`payloads[${i}].metadata.${k}`, 'must be base64');
      meta[k] = Buffer.from(v, 'base64');
    }
    return { metadata: meta, data: Buffer.from(data, 'base64') };
  });
}

/** Payload -> JSON. */
export function toJson(payloads: Payload[]): { payloads: JsonPayload[] } {
  return {
    payloads: payloads.map((p) => ({
      metadata: Object.fromEntries(
        Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v as Uint8Array).toString('base64')]),
      ),
      data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
    })),
  };
}

const PAYLOADS_SCHEMA = {
  type: 'object',
  required: ['payloads'],
  properties: {
    payloads: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          metadata: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
          data: { type: 'string', format: 'byte' },
        },
      },
    },
  },
};

/**
 * Needs the ops role (an ops API key, or the Temporal UI user's access token with the ops role:
 * UI setting `codec.passAccessToken`). The embedded dev stack (CODEC_OPEN_ON_LOOPBACK) also
 * lets loopback callers in without a credential.
 */
@ApiTags('codec')
@Authenticated()
@RequireRole('ops')
@LoopbackDevOpen()
@ProblemResponses([400, 'Not payloads, or not decodable'], [403, 'Not the ops role'])
@Controller('codec')
export class CodecController {
  constructor(@Optional() @Inject(UI_PAYLOAD_CODEC) private readonly codec?: UiPayloadCodec) {}

  @Post('decode')
  @HttpCode(200)
  @ApiOperation({ summary: 'Temporal remote codec: decrypt payloads for display (card data masked)' })
  @ApiHeader({ name: 'X-Namespace', required: false })
  @ApiBody({ schema: PAYLOADS_SCHEMA })
  @ApiResponse({ status: 200, description: 'Decoded payloads', schema: PAYLOADS_SCHEMA })
  async decode(@Body() body: unknown, @Headers('x-namespace') namespace?: string) {
    const payloads = fromJson(body);
    const codec = this.require();
    let decoded: Payload[];
    try {
      decoded = await codec.decode(payloads, namespace);
    } catch {
      // The reason may name key ids; keep it out of the answer.
      throw new ApiError('INVALID_REQUEST', 'The payloads could not be decoded (wrong key or corrupt data)');
    }
    return toJson(decoded);
  }

  @Post('encode')
  @HttpCode(200)
  @ApiOperation({ summary: 'Temporal remote codec: encrypt payloads' })
  @ApiHeader({ name: 'X-Namespace', required: false })
  @ApiBody({ schema: PAYLOADS_SCHEMA })
  @ApiResponse({ status: 200, description: 'Encoded payloads', schema: PAYLOADS_SCHEMA })
  async encode(@Body() body: unknown, @Headers('x-namespace') namespace?: string) {
    const payloads = fromJson(body);
    return toJson(await this.require().encode(payloads, namespace));
  }

  private require(): UiPayloadCodec {
    if (this.codec === undefined) throw new ApiError('CODEC_UNAVAILABLE', 'No payload codec is configured');
    return this.codec;
  }
}
