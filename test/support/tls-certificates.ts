// Certificates for TLS tests, made at test time with the openssl CLI: two CAs
// (the one the server trusts and another), a server certificate for 127.0.0.1
// and localhost, and a client certificate from each CA. EC P-256 keys, valid
// two days, written as PEM files into a temporary folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsFiles {
  dir: string;
  /** The CA the server's certificate and the trusted client certificate come from. */
  ca: string;
  /** A CA nobody here trusts, with a client certificate of its own. */
  otherCa: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A client certificate signed by `otherCa`. */
  foreignClientCert: string;
  foreignClientKey: string;
  remove(): void;
}

const OPENSSL = '/usr/bin/openssl';
const KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function makeTlsFiles(): TlsFiles {
  const dir = mkdtempSync(join(tmpdir(), 'temporal-tls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync(OPENSSL, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ca = (name: string) => openssl('req', '-x509', ...KEY, '-keyout', `${name}-key.pem`, '-out', `${name}.pem`, '-days', '2', '-subj', `/CN=${name}`);
  const signed = (name: string, issuer: string, extensions: string) => {
    writeFileSync(file(`${name}.ext`), extensions);
    openssl('req', ...KEY, '-keyout', `${name}-key.pem`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${issuer}.pem`,
      '-CAkey',
      `${issuer}-key.pem`,
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
  };
  ca('ca');
  ca('other-ca');
  signed('server', 'ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  signed('client', 'ca', 'extendedKeyUsage=clientAuth\n');
  signed('foreign-client', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  return {
    dir,
    ca: file('ca.pem'),
    otherCa: file('other-ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server-key.pem'),
    clientCert: file('client.pem'),
    clientKey: file('client-key.pem'),
    foreignClientCert: file('foreign-client.pem'),
    foreignClientKey: file('foreign-client-key.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
