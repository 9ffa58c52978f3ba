/**
 * Remote payload codec for the Temporal Web UI (and `temporal --codec-endpoint`): POST
 * `/codec/decode` and `/codec/encode` with `{payloads: [{metadata: {k: base64}, data: base64}]}`.
 * Decoding masks card data, so the UI shows readable payloads without card numbers or CVVs.
 * CORS for the UI origin is set in `configureApp`.
 */
import { Body, Controller, Headers, HttpCode, Inject, Optional, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Payload } from '@temporalio/common';
import { z } from 'zod/v4';
import { UI_PAYLOAD_CODEC } from '../common/api.tokens';
import { LoopbackDevOpen, RequireRole } from '../auth/auth.decorators';
import { ApiError } from '../common/api-error';
import { Authenticated, ProblemResponses } from '../common/openapi.decorators';
import { fieldErrors } from '../common/validation';

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
const base64 = z.string({ message: 'must be base64' }).regex(B64, 'must be base64');

/** Body of `/codec/decode` and `/codec/encode` (the remote codec protocol); also their OpenAPI schema. */
export const codecBodySchema = z.object({
  payloads: z.array(
    z.object(
      {
        metadata: z.record(z.string(), base64.meta({ format: 'byte' }), { message: 'must be an object' }).optional(),
        data: base64.meta({ format: 'byte' }).optional(),
      },
      { message: 'must be an object' },
    ),
    { message: 'must be an array' },
  ),
});

/** JSON -> Payload; throws INVALID_REQUEST naming the bad paths. */
export function fromJson(body: unknown): Payload[] {
  const r = codecBodySchema.safeParse(body ?? {});
  if (!r.success) {
    throw new ApiError('INVALID_REQUEST', 'Invalid codec request', { fields: fieldErrors(r.error) });
  }
  return r.data.payloads.map(({ metadata = {}, data = '' }) => ({
    metadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(data, 'base64'),
  }));
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

const PAYLOADS_SCHEMA = { $ref: '#/components/schemas/CodecPayloads' };

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
    } catch (error) {
      // The reason may name key ids; keep it out of the answer (the cause never reaches it).
      throw new ApiError('INVALID_REQUEST', 'The payloads could not be decoded (wrong key or corrupt data)', {
        cause: error,
      });
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
