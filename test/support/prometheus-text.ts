// Reading a process's GET /metrics in tests: the samples of the Prometheus text
// format, one series exactly (sampleOf) or the sum of a metric's series whose
// labels include the ones asked (value).

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  /** Sums the series of `name` (full name, suffix included) that carry `labels`; 0 when none does. */
  value(name: string, labels?: Record<string, string>): number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

export function parsePrometheusText(text: string): Scrape {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = SAMPLE.exec(line);
    if (!m || line.startsWith('#')) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(LABEL)) labels[key!] = unescape(value!);
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return {
    samples,
    value: (name, labels = {}) =>
      samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0),
  };
}

/** The one series of `name` with exactly `labels`; undefined when the answer has no such series. */
export function sampleOf(scrape: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const exact = (s: Sample) =>
    s.name === name && Object.keys(s.labels).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => s.labels[k] === v);
  return scrape.samples.find(exact)?.value;
}

/** GET `url` (a /metrics URL), parsed. */
export async function scrapeMetrics(url: string): Promise<Scrape> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return parsePrometheusText(await res.text());
}
