// JSON with object keys sorted, so that one body sent with its keys in another
// order reads the same: what request fingerprints hash (idempotency keys, the
// resume of a timed-out scrape).

type Work = { text: string } | { value: unknown };

/**
 * Writes the value as canonical JSON in pieces. Iterative: it runs on bodies nested as deep as the
 * JSON parser allows (before any schema), where recursion would overflow the stack.
 */
export function writeCanonicalJson(root: unknown, write: (text: string) => void): void {
  const work: Work[] = [{ value: root }];
  const pushInOrder = (parts: Work[]) => {
    for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]);
  };
  while (work.length > 0) {
    const item = work.pop()!;
    if ('text' in item) {
      write(item.text);
      continue;
    }
    const { value } = item;
    if (Array.isArray(value)) {
      pushInOrder([{ text: '[' }, ...value.flatMap((v, i): Work[] => (i === 0 ? [{ value: v }] : [{ text: ',' }, { value: v }])), { text: ']' }]);
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      pushInOrder([
        { text: '{' },
        ...entries.flatMap(([k, v], i): Work[] => [{ text: `${i === 0 ? '' : ','}${JSON.stringify(k)}:` }, { value: v }]),
        { text: '}' },
      ]);
    } else {
      write(JSON.stringify(value) ?? 'null');
    }
  }
}
