// The one place that turns the Temporal settings into connection options. The
// client's Connection and the worker's NativeConnection take the same `address`,
// `tls` and `apiKey` options, so one endpoint serves both. Certificate files are
// read and checked here, once at start, so a wrong path or a key that does not
// belong to its certificate stops the process naming the setting, before any
// connection attempt turns it into an opaque handshake failure.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import type { TemporalSettings } from './config.ts';

export interface TemporalEndpoint {
  address: string;
  /** Undefined: plaintext. */
  tls?: TLSConfig;
  apiKey?: string;
}

function readSetting(setting: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(`${setting}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err });
  }
}

function certificate(setting: string, path: string): Buffer {
  const pem = readSetting(setting, path);
  try {
    new X509Certificate(pem);
  } catch {
    throw new Error(`${setting}: ${path} holds no PEM certificate`);
  }
  return pem;
}

function clientCertPair({ certFile, keyFile }: { certFile: string; keyFile: string }): NonNullable<TLSConfig['clientCertPair']> {
  const crt = certificate('TEMPORAL_TLS_CERT_FILE', certFile);
  const key = readSetting('TEMPORAL_TLS_KEY_FILE', keyFile);
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new Error(`TEMPORAL_TLS_KEY_FILE: ${keyFile} holds no unencrypted PEM private key`);
  }
  if (!new X509Certificate(crt).checkPrivateKey(privateKey))
    throw new Error(`TEMPORAL_TLS_KEY_FILE: ${keyFile} is not the private key of the certificate in TEMPORAL_TLS_CERT_FILE (${certFile})`);
  return { crt, key };
}

export function temporalEndpoint(address: string, settings: Pick<TemporalSettings, 'tls' | 'apiKey'>): TemporalEndpoint {
  const { tls, apiKey } = settings;
  if (!tls) return { address };
  return {
    address,
    tls: {
      serverRootCACertificate: tls.caFile ? certificate('TEMPORAL_TLS_CA_FILE', tls.caFile) : undefined,
      serverNameOverride: tls.serverName,
      clientCertPair: tls.clientCert ? clientCertPair(tls.clientCert) : undefined,
    },
    apiKey,
  };
}
