/** Temporal plumbing shared by the worker, the API and the tools. */
export { createDataConverter } from './data-converter';
export { EncryptionCodec, loadPayloadKey, developmentPayloadKey, ENCRYPTED_ENCODING } from './payload-codec';
export { decodePayloadsForUi, decodeRemoteCodecBody, maskCardData, type JsonPayload } from './ui-codec';
export { loadTemporalConfig, TemporalConfigError, type TemporalConfig } from './temporal.config';
export { createTemporalClient, createTemporalConnection, createWorkerConnection } from './temporal.connection';
export { registerSearchAttributes } from './search-attributes.registration';
export {
  missingSearchAttributes,
  missingSearchAttributesMessage,
  probeSearchAttributes,
  REGISTER_SEARCH_ATTRIBUTES_COMMAND,
} from './search-attributes.check';
export {
  AgencyIdKey,
  AirlineKey,
  BookingReferenceKey,
  BookingStatusKey,
  RouteKey,
  BOOKING_SEARCH_ATTRIBUTE_KEYS,
} from './search-attributes';
