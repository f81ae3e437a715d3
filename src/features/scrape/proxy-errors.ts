// Crawlee routes browser traffic through an in-process proxy (proxy-chain),
// which reports network failures as HTTP responses with 59x statuses instead
// of letting Chromium fail the navigation. Those are not pages.
const PROXY_FAILURES: Record<number, string> = {
  590: 'the server answered the proxy with an error',
  592: 'the server answered with an invalid status code',
  593: 'the host name could not be resolved (DNS)',
  594: 'the connection was refused',
  595: 'the server closed the connection without answering',
  596: 'the connection broke off',
  597: 'the upstream proxy refused its credentials',
  599: 'the connection failed',
};

/** A readable failure for a 59x answer of the in-process proxy, or undefined for a real response. */
export function proxyFailure(statusCode: number, url: string): string | undefined {
  const reason = PROXY_FAILURES[statusCode];
  return reason && `Could not load ${url}: ${reason}`;
}
