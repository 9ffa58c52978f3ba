/**
 * The data converter used by every process that talks to Temporal (worker, API, CLI, tests):
 * default JSON payload conversion, then the AES-256-GCM {@link EncryptionCodec}.
 */
import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec, loadPayloadKey } from './payload-codec';

/** A data converter encrypting payloads with `key` (default: from PAYLOAD_ENCRYPTION_KEY). */
export function createDataConverter(key: Buffer = loadPayloadKey()): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(key)] };
}
