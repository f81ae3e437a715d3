// Why a TLS connection to Temporal failed, in one line. The SDK's client only
// reports "Failed to connect before the deadline" whatever the cause, and its
// worker's messages are Rust debug dumps, so after a failed connect this makes
// one TLS connection of its own with the same settings (Node's TLS is what the
// client uses underneath) and reads the verdict from the handshake: a
// certificate problem is final, while a refused or reset connection is a server
// still starting, which the caller keeps waiting for.
import { isIP } from 'node:net';
import { connect, type ConnectionOptions } from 'node:tls';
import { hostPort } from '../net/service-endpoints.ts';
import type { TemporalEndpoint } from './connection-options.ts';

/** A failed connection whose cause is the TLS settings or the server's certificate, not its availability. */
export class TemporalTlsError extends Error {}

// The HTTP/2 connection preface and an empty SETTINGS frame: a gRPC server answers with its own
// SETTINGS, and a server that refuses the client certificate under TLS 1.3 says so only after the
// handshake, on the first bytes it reads.
const HTTP2_PREFACE = Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])]);

/** OpenSSL's verification codes for a server certificate that does not chain to a trusted CA. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'INVALID_CA',
]);

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function verdict(endpoint: TemporalEndpoint, name: string, err: NodeJS.ErrnoException & { reason?: string }): string | undefined {
  const code = err.code ?? '';
  const reason = oneLine(err.reason ?? err.message);
  const ca = endpoint.tls?.serverRootCACertificate ? 'TEMPORAL_TLS_CA_FILE' : "the system's CAs (set TEMPORAL_TLS_CA_FILE to the server's CA)";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the server's certificate is not valid for the name ${name}${endpoint.tls?.serverNameOverride ? ' (TEMPORAL_TLS_SERVER_NAME)' : ''}: ${reason}`;
  if (UNTRUSTED.has(code)) return `the server's certificate is not trusted by ${ca}: ${reason} (${code})`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG')
    return `the server does not speak TLS (${reason}); for a plaintext server leave the TEMPORAL_TLS settings unset`;
  if (/^ERR_SSL_.*ALERT_(CERTIFICATE|BAD_CERTIFICATE|UNKNOWN_CA|ACCESS_DENIED|UNSUPPORTED_CERTIFICATE)/.test(code))
    return endpoint.tls?.clientCertPair
      ? `the server refused the client certificate of TEMPORAL_TLS_CERT_FILE: ${reason}`
      : `the server requires a client certificate (set TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE): ${reason}`;
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return `the TLS handshake failed: ${reason}`;
  return undefined;
}

/** The TLS cause of a failed connection to `endpoint`, or undefined when TLS is not the problem (or not in use). */
export function tlsFailure(endpoint: TemporalEndpoint, timeoutMs = 5_000): Promise<string | undefined> {
  const tls = endpoint.tls;
  const target = hostPort(endpoint.address, 7233);
  if (!tls || !target) return Promise.resolve(undefined);
  // SNI carries the override, or the host when it is a name (RFC 6066 has no SNI for addresses); Node checks
  // the certificate against `servername`, else the host, as the SDK's client does.
  const servername = tls.serverNameOverride ?? (isIP(target.host) ? undefined : target.host);
  const options: ConnectionOptions = {
    host: target.host,
    port: target.port,
    servername,
    ALPNProtocols: ['h2'],
    ca: tls.serverRootCACertificate ? Buffer.from(tls.serverRootCACertificate) : undefined,
    cert: tls.clientCertPair ? Buffer.from(tls.clientCertPair.crt) : undefined,
    key: tls.clientCertPair ? Buffer.from(tls.clientCertPair.key) : undefined,
  };
  return new Promise((resolve) => {
    const socket = connect(options);
    const done = (result: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    let handshaken = false;
    socket.once('secureConnect', () => {
      handshaken = true;
      if (socket.alpnProtocol !== 'h2') {
        done("the server does not offer HTTP/2 over TLS (ALPN h2), which Temporal's worker needs; a TLS proxy in front of Temporal must offer it");
        return;
      }
      socket.write(HTTP2_PREFACE);
    });
    socket.once('data', () => done(undefined));
    socket.once('error', (err) => done(verdict(endpoint, servername ?? target.host, err)));
    // Some servers (Node's among them) refuse a client certificate by hanging up without an alert; a
    // server that accepts it speaks first (its HTTP/2 SETTINGS). Without a certificate offered, a
    // silent hang-up is a TLS proxy with nothing behind it yet: worth waiting for.
    socket.once('close', () =>
      done(
        !handshaken || !tls.clientCertPair
          ? undefined
          : 'the server hung up right after the TLS handshake without a word: it refused the client certificate of TEMPORAL_TLS_CERT_FILE, or it is a TLS proxy with no Temporal behind it',
      ),
    );
  });
}

/** After a failed connect: throws its TLS cause, in one line naming Temporal and the address, when there is one. */
export async function throwIfTlsFailure(endpoint: TemporalEndpoint): Promise<void> {
  const cause = await tlsFailure(endpoint);
  if (cause) throw new TemporalTlsError(`TLS to Temporal at ${endpoint.address} failed: ${cause}`);
}
