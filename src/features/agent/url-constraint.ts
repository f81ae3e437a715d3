// strictConstrainToURLs: a URL is allowed when it is one of the request's urls or
// lies under one (same origin, path below the given path).
export function allowedUnder(urls: string[]): (url: string) => boolean {
  const roots = urls.map((u) => new URL(u));
  return (url) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return false;
    }
    return roots.some((root) => {
      if (root.origin !== target.origin) return false;
      const base = root.pathname.endsWith('/') ? root.pathname : `${root.pathname}/`;
      return target.pathname === root.pathname || target.pathname.startsWith(base) || root.pathname === '/';
    });
  };
}
