/**
 * Connections and clients built from {@link TemporalConfig}, always with the encrypting data
 * converter.
 */
import { Client, Connection, type ClientInterceptors, type ConnectionOptions } from '@temporalio/client';
import { NativeConnection, type NativeConnectionOptions } from '@temporalio/worker';
import { createDataConverter } from './data-converter';
import { loadTemporalConfig, type TemporalConfig } from './temporal.config';

type TlsOption = NonNullable<ConnectionOptions['tls']>;

function tlsOption(config: TemporalConfig): TlsOption | undefined {
  if (config.tls === undefined) return undefined;
  const tls = config.tls;
  if (tls.clientCert === undefined && tls.serverRootCa === undefined && tls.serverName === undefined) return true;
  return {
    ...(tls.serverName !== undefined ? { serverNameOverride: tls.serverName } : {}),
    ...(tls.serverRootCa !== undefined ? { serverRootCACertificate: tls.serverRootCa } : {}),
    ...(tls.clientCert !== undefined && tls.clientKey !== undefined
      ? { clientCertPair: { crt: tls.clientCert, key: tls.clientKey } }
      : {}),
  };
}

/** Options shared by client and worker connections. */
function connectionOptions(config: TemporalConfig): { address: string; tls?: TlsOption; apiKey?: string } {
  const tls = tlsOption(config);
  return {
    address: config.address,
    ...(tls !== undefined ? { tls } : {}),
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
  };
}

/** A client connection (API, CLI, tests). Default config: from the environment. */
export async function createTemporalConnection(config: TemporalConfig = loadTemporalConfig()): Promise<Connection> {
  return Connection.connect(connectionOptions(config));
}

/** A worker connection (Rust core). Default config: from the environment. */
export async function createWorkerConnection(config: TemporalConfig = loadTemporalConfig()): Promise<NativeConnection> {
  return NativeConnection.connect(connectionOptions(config) as NativeConnectionOptions);
}

/**
 * A client with the encrypting data converter, on `connection` (default: a new connection from
 * the environment; the caller closes it with `client.connection.close()`), with `interceptors`
 * (default none; the API adds the OpenTelemetry one).
 */
export async function createTemporalClient(
  options: { connection?: Connection; config?: TemporalConfig; interceptors?: ClientInterceptors } = {},
): Promise<Client> {
  const config = options.config ?? loadTemporalConfig();
  const connection = options.connection ?? (await createTemporalConnection(config));
  return new Client({
    connection,
    namespace: config.namespace,
    dataConverter: createDataConverter(),
    ...(options.interceptors !== undefined ? { interceptors: options.interceptors } : {}),
  });
}
