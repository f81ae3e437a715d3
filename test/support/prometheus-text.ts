// Prometheus text as tests read it: every sample of a GET /metrics answer by
// name and labels (in any order), so a test can compare one series before and
// after an action.

export type Samples = Map<string, number>;

const key = (name: string, labels: Record<string, string>) =>
  `${name}{${Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',')}}`;

export function parsePrometheusText(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[name] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.set(key(match[1], labels), Number(match[3]));
  }
  return samples;
}

/** One series' value; undefined when the answer has no such series. */
export function sampleOf(samples: Samples, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.get(key(name, labels));
}

/** GET <url>/metrics, parsed. */
export async function scrapeMetrics(baseUrl: string): Promise<Samples> {
  const answer = await fetch(`${baseUrl}/metrics`);
  if (!answer.ok) throw new Error(`GET ${baseUrl}/metrics answered ${answer.status}`);
  return parsePrometheusText(await answer.text());
}
