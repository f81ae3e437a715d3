// The Temporal TLS settings: what turns TLS on, what must come together, and
// the files read once at start with errors naming the setting and the path.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { temporalEndpoint } from '../../../src/platform/temporal/connection-options.ts';
import { makeTlsFiles, type TlsFiles } from '../../support/tls-certificates.ts';

let files: TlsFiles;
beforeAll(() => {
  files = makeTlsFiles();
});
afterAll(() => files?.remove());
afterEach(() => vi.unstubAllEnvs());

const TLS_VARIABLES = [
  'TEMPORAL_TLS',
  'TEMPORAL_TLS_CA_FILE',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_TLS_CERT_FILE',
  'TEMPORAL_TLS_KEY_FILE',
  'TEMPORAL_API_KEY',
];

/** Only these Temporal settings, whatever the environment running the tests holds. */
function settings(env: Record<string, string>) {
  for (const name of TLS_VARIABLES) vi.stubEnv(name, env[name] ?? '');
  vi.stubEnv('TEMPORAL_ADDRESS', env.TEMPORAL_ADDRESS ?? 'temporal.example:7233');
  return loadConfig().temporal;
}

describe('TLS settings', () => {
  it('leave the connection in plaintext when none is set', () => {
    const temporal = settings({});
    expect(temporal.tls).toBeUndefined();
    expect(temporalEndpoint('temporal.example:7233', temporal)).toEqual({ address: 'temporal.example:7233' });
  });

  it('turn TLS on with TEMPORAL_TLS alone (the system CAs verify the server)', () => {
    expect(settings({ TEMPORAL_TLS: 'true' }).tls).toEqual({ caFile: undefined, serverName: undefined, clientCert: undefined });
  });

  it('turn TLS on with an API key, which is never sent in the clear', () => {
    const temporal = settings({ TEMPORAL_API_KEY: 'secret-key' });
    expect(temporal.tls).toBeDefined();
    const endpoint = temporalEndpoint('ns.acct.tmprl.cloud:7233', temporal);
    expect(endpoint.apiKey).toBe('secret-key');
    expect(endpoint.tls).toBeDefined();
    expect(() => settings({ TEMPORAL_TLS: 'false', TEMPORAL_API_KEY: 'secret-key' })).toThrow('TEMPORAL_TLS is off but TEMPORAL_API_KEY needs TLS');
  });

  it('turn TLS on with a CA file or a server name', () => {
    expect(settings({ TEMPORAL_TLS_CA_FILE: files.ca }).tls?.caFile).toBe(files.ca);
    expect(settings({ TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' }).tls?.serverName).toBe('temporal.internal');
  });

  it('take the client certificate and its key together or not at all', () => {
    expect(() => settings({ TEMPORAL_TLS_CERT_FILE: files.clientCert })).toThrow(
      'TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE go together (the client certificate and its private key); only TEMPORAL_TLS_CERT_FILE is set',
    );
    expect(() => settings({ TEMPORAL_TLS_KEY_FILE: files.clientKey })).toThrow(/go together .*; only TEMPORAL_TLS_KEY_FILE is set/);
    expect(settings({ TEMPORAL_TLS_CERT_FILE: files.clientCert, TEMPORAL_TLS_KEY_FILE: files.clientKey }).tls?.clientCert).toEqual({
      certFile: files.clientCert,
      keyFile: files.clientKey,
    });
  });

  it('are refused without TEMPORAL_ADDRESS: the dev server npm start runs speaks plaintext', () => {
    vi.stubEnv('TEMPORAL_TLS', 'true');
    vi.stubEnv('TEMPORAL_ADDRESS', '');
    expect(() => loadConfig()).toThrow(/the TEMPORAL_TLS settings are for an external Temporal \(TEMPORAL_ADDRESS\)/);
  });
});

describe('TLS files', () => {
  const endpoint = (env: Record<string, string>) => temporalEndpoint('temporal.example:7233', settings(env));

  it('are read into the connection options', () => {
    const { tls } = endpoint({
      TEMPORAL_TLS_CA_FILE: files.ca,
      TEMPORAL_TLS_SERVER_NAME: 'localhost',
      TEMPORAL_TLS_CERT_FILE: files.clientCert,
      TEMPORAL_TLS_KEY_FILE: files.clientKey,
    });
    expect(tls?.serverNameOverride).toBe('localhost');
    expect(Buffer.from(tls!.serverRootCACertificate!).toString()).toContain('BEGIN CERTIFICATE');
    expect(Buffer.from(tls!.clientCertPair!.crt).toString()).toContain('BEGIN CERTIFICATE');
    expect(Buffer.from(tls!.clientCertPair!.key).toString()).toContain('PRIVATE KEY');
  });

  it('name the setting and the path when unreadable', () => {
    const missing = join(files.dir, 'no-such-ca.pem');
    expect(() => endpoint({ TEMPORAL_TLS_CA_FILE: missing })).toThrow(`TEMPORAL_TLS_CA_FILE: cannot read ${missing} (ENOENT)`);
    expect(() => endpoint({ TEMPORAL_TLS_CERT_FILE: files.clientCert, TEMPORAL_TLS_KEY_FILE: files.dir })).toThrow(
      `TEMPORAL_TLS_KEY_FILE: cannot read ${files.dir} (EISDIR)`,
    );
  });

  it('say so when a file holds no certificate, or a key that is not the certificate’s', () => {
    const notPem = join(files.dir, 'not-a-certificate.pem');
    writeFileSync(notPem, 'hello\n');
    expect(() => endpoint({ TEMPORAL_TLS_CA_FILE: notPem })).toThrow(`TEMPORAL_TLS_CA_FILE: ${notPem} holds no PEM certificate`);
    expect(() => endpoint({ TEMPORAL_TLS_CERT_FILE: files.clientCert, TEMPORAL_TLS_KEY_FILE: notPem })).toThrow(
      `TEMPORAL_TLS_KEY_FILE: ${notPem} holds no unencrypted PEM private key`,
    );
    const otherKey = join(files.dir, 'other-key.pem');
    copyFileSync(files.foreignClientKey, otherKey);
    expect(() => endpoint({ TEMPORAL_TLS_CERT_FILE: files.clientCert, TEMPORAL_TLS_KEY_FILE: otherKey })).toThrow(
      `TEMPORAL_TLS_KEY_FILE: ${otherKey} is not the private key of the certificate in TEMPORAL_TLS_CERT_FILE (${files.clientCert})`,
    );
  });
});
