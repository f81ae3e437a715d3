// Robots and sitemap code never opens sockets: the caller injects a fetch that
// follows redirects and refuses private addresses (DNS-rebinding safe), so the
// parsers stay testable without a network.

/** GETs a URL after redirects; throws on network errors or blocked addresses. */
export type FetchResource = (url: string) => Promise<{ status: number; body: Buffer; headers: Record<string, string>; finalUrl: string }>;
