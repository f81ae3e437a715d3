// The Grafana dashboard and the Prometheus alerting rules in deploy/ (docs/operations.md,
// "Dashboards and alerts"): every PromQL expression parses with Prometheus' own grammar
// (@prometheus-io/lezer-promql), and every series, label and job it names is one the service
// exports: the service's metrics as the code declares them and the metrics table lists them,
// Node's from the same registry, the Temporal SDK core's as the docs name them and the installed
// core defines them. The files' structure, and the compose profile that runs them, are checked too.
import { readFileSync } from 'node:fs';
import type { SyntaxNode } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { METRIC_PREFIX } from '../../../src/platform/metrics/registry.ts';
import { declaredMetrics, documentedMetrics, documentedSdkMetrics, sdkCoreMetricNames, type MetricShape } from '../../support/service-metrics.ts';

type Dict = Record<string, unknown>;
const ROOT = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

const dashboard = JSON.parse(read('deploy/grafana/dashboards/service.json')) as Dict;
const rules = parseYaml(read('deploy/prometheus/alerts.yml')) as Dict;
const prometheusConfig = parseYaml(read('deploy/prometheus/prometheus.yml')) as {
  rule_files: string[];
  scrape_configs: { job_name: string; dns_sd_configs: { names: string[]; type: string; port: number }[] }[];
};
const compose = parseYaml(read('docker-compose.yml')) as {
  services: Record<string, { profiles?: string[]; volumes?: string[]; environment?: Record<string, string>; depends_on?: unknown }>;
};

/** Labels Prometheus adds to every series it scrapes. */
const TARGET_LABELS = ['job', 'instance'];
/** Labels the Temporal SDK core puts on its metrics (its sources: KEY_* constants); which metric has which is not checked. */
const SDK_LABELS = [
  'namespace',
  'task_queue',
  'worker_type',
  'activity_type',
  'workflow_type',
  'poller_type',
  'operation',
  'status_code',
  'eager',
  'failure_reason',
  'service_name',
];
/** Series Prometheus itself writes for each target. */
const PROMETHEUS_SERIES = new Map([['up', [] as string[]]]);
/** What the dashboard's queries may use of Grafana's built-in variables, given a value for parsing. */
const GRAFANA_VARIABLES: Record<string, string> = { $__rate_interval: '5m', $__interval: '1m', $__range: '1h' };
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];
const JOBS = prometheusConfig.scrape_configs.map((c) => c.job_name);

interface Series {
  /** The metric the series belongs to (a histogram's base name). */
  metric: string;
  labels: Set<string>;
}

/** Resolves a series name to the metric that exports it, or undefined when nothing does. */
type Catalog = (series: string) => Series | undefined;

function catalog(declared: Map<string, MetricShape>, documentedSdk: Set<string>, coreNames: Set<string>): Catalog {
  const withTargets = (labels: string[]) => new Set([...labels, ...TARGET_LABELS]);
  return (series) => {
    const prometheus = PROMETHEUS_SERIES.get(series);
    if (prometheus) return { metric: series, labels: withTargets(prometheus) };
    const shape = declared.get(series);
    if (shape && shape.type !== 'histogram') return { metric: series, labels: withTargets(shape.labels) };
    const suffix = HISTOGRAM_SUFFIXES.find((s) => series.endsWith(s));
    const base = suffix ? series.slice(0, -suffix.length) : series;
    const histogram = declared.get(base);
    if (suffix && histogram?.type === 'histogram') return { metric: base, labels: withTargets([...histogram.labels, ...(suffix === '_bucket' ? ['le'] : [])]) };
    // The core's exporter: temporal_ + name, _seconds on durations, _total on counters (sdk-runtime.ts's options).
    if (base.startsWith('temporal_') && documentedSdk.has(base)) {
      const core = base
        .slice('temporal_'.length)
        .replace(/_total$/, '')
        .replace(/_seconds$/, '');
      if (coreNames.has(core)) return { metric: base, labels: withTargets([...SDK_LABELS, ...(suffix === '_bucket' ? ['le'] : [])]) };
    }
    return undefined;
  };
}

function children(node: SyntaxNode, name: string): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.name === name) out.push(c);
  return out;
}

function descendants(node: SyntaxNode, name: string): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const cursor = node.cursor();
  const stop = node.to;
  if (!cursor.firstChild()) return out;
  do {
    if (cursor.from >= stop) break;
    if (cursor.name === name) out.push(cursor.node);
  } while (cursor.next() && cursor.from < stop);
  return out;
}

/** What is wrong with one expression, and the metrics it uses. */
function checkExpression(source: string, lookup: Catalog): { problems: string[]; metrics: Set<string> } {
  const problems: string[] = [];
  const metrics = new Set<string>();
  const expr = source.replace(/\$\w+|\$\{\w+\}/g, (variable) => {
    const value = GRAFANA_VARIABLES[variable];
    if (value === undefined) problems.push(`unknown variable ${variable}`);
    return value ?? '5m';
  });
  const tree = parser.parse(expr);
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) problems.push(`syntax error at ${node.from}: ${JSON.stringify(expr.slice(Math.max(0, node.from - 20), node.from + 20))}`);
    },
  });
  const top = tree.topNode;
  const text = (node: SyntaxNode) => expr.slice(node.from, node.to);
  const seriesOf = new Map<SyntaxNode, Series | undefined>();
  for (const selector of descendants(top, 'VectorSelector')) {
    const [identifier] = children(selector, 'Identifier');
    if (!identifier) {
      problems.push(`a selector without a metric name: ${text(selector)}`);
      continue;
    }
    const name = text(identifier);
    const series = lookup(name);
    seriesOf.set(selector, series);
    if (!series) {
      problems.push(`${name} is not a series the service exports`);
      continue;
    }
    metrics.add(series.metric);
    for (const matchers of children(selector, 'LabelMatchers')) {
      for (let matcher = matchers.firstChild; matcher; matcher = matcher.nextSibling) {
        if (matcher.name !== 'UnquotedLabelMatcher') {
          problems.push(`${name}: write label matchers as label="value": ${text(matcher)}`);
          continue;
        }
        const label = text(children(matcher, 'LabelName')[0]!);
        if (!series.labels.has(label)) problems.push(`${name} has no label ${label}`);
        if (label === 'job') {
          const value = JSON.parse(text(children(matcher, 'StringLiteral')[0]!)) as string;
          for (const job of value.split('|'))
            if (!JOBS.includes(job)) problems.push(`${name}: job ${job} is not a scrape job of deploy/prometheus/prometheus.yml`);
        }
      }
    }
  }
  // An aggregation groups by labels that the series under it carry.
  for (const aggregate of descendants(top, 'AggregateExpr')) {
    const modifier = children(aggregate, 'AggregateModifier')[0];
    if (!modifier || children(modifier, 'By').length === 0) continue;
    const inner = [...seriesOf].filter(([selector, s]) => s && selector.from >= aggregate.from && selector.to <= aggregate.to).map(([, s]) => s!);
    for (const labelNode of descendants(modifier, 'LabelName')) {
      const label = text(labelNode);
      if (!inner.some((s) => s.labels.has(label))) problems.push(`by (${label}): no series under ${text(aggregate).slice(0, 60)}… has that label`);
    }
  }
  return { problems, metrics };
}

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: unknown;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { refId: string; expr: string; datasource?: unknown }[];
  panels?: Panel[];
}

const panels = (dashboard.panels as Panel[]).flatMap((p) => [p, ...(p.panels ?? [])]);
const queryPanels = panels.filter((p) => p.type !== 'row');
const alertRules = (rules.groups as { rules: Dict[] }[]).flatMap((g) => g.rules);

function dashboardQueries(): { where: string; expr: string }[] {
  return queryPanels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}" ${t.refId}`, expr: t.expr })));
}

function ruleQueries(): { where: string; expr: string }[] {
  return alertRules.map((r) => ({ where: `alert ${String(r.alert)}`, expr: String(r.expr) }));
}

async function exportedCatalog(): Promise<Catalog> {
  return catalog(await declaredMetrics(), documentedSdkMetrics(), sdkCoreMetricNames());
}

describe('the PromQL of the dashboard and the alerting rules', () => {
  it('parses, and names only series, labels and jobs the service exports', async () => {
    const lookup = await exportedCatalog();
    const queries = [...dashboardQueries(), ...ruleQueries()];
    expect(queries.length).toBeGreaterThan(40);
    const problems = queries.flatMap(({ where, expr }) => checkExpression(expr, lookup).problems.map((p) => `${where}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('shows every metric the service declares on the dashboard', async () => {
    const lookup = await exportedCatalog();
    const shown = new Set(dashboardQueries().flatMap(({ expr }) => [...checkExpression(expr, lookup).metrics]));
    const declared = [...(await declaredMetrics()).keys()].filter((name) => name.startsWith(METRIC_PREFIX));
    expect(declared.filter((name) => !shown.has(name))).toEqual([]);
    // Temporal's schedule-to-start latencies come from the SDK core, not the registry.
    expect([...shown].filter((name) => name.startsWith('temporal_'))).toEqual(
      expect.arrayContaining(['temporal_activity_schedule_to_start_latency_seconds', 'temporal_workflow_task_schedule_to_start_latency_seconds']),
    );
  });

  it('takes its list from the code and the docs, which agree', async () => {
    const declared = new Map([...(await declaredMetrics())].filter(([name]) => name.startsWith(METRIC_PREFIX)));
    expect([...documentedMetrics().keys()].sort()).toEqual([...declared.keys()].sort());
    const core = sdkCoreMetricNames();
    for (const name of documentedSdkMetrics()) {
      expect(core, `${name} (docs/operations.md) is a metric of the installed Temporal SDK core`).toContain(
        name
          .slice('temporal_'.length)
          .replace(/_total$/, '')
          .replace(/_seconds$/, ''),
      );
    }
  });

  it('finds what is wrong in a query: syntax, unknown series, labels, jobs, groupings and variables', async () => {
    const lookup = await exportedCatalog();
    const problems = (expr: string) => checkExpression(expr, lookup).problems;
    expect(problems('sum by (kind) (rate(crawl_service_pages_stored_total[$__rate_interval]))')).toEqual([]);
    expect(problems('sum(rate(crawl_service_pages_stored_total[5m])')).toEqual([expect.stringMatching(/^syntax error/)]);
    expect(problems('rate(crawl_service_pages_scraped_total[5m])')).toEqual(['crawl_service_pages_scraped_total is not a series the service exports']);
    expect(problems('crawl_service_http_request_duration_seconds')).toEqual([
      'crawl_service_http_request_duration_seconds is not a series the service exports',
    ]);
    expect(problems('temporal_activity_schedule_to_start_latency_bucket')).toEqual([expect.stringContaining('not a series')]);
    expect(problems('crawl_service_webhook_deliveries_total{reason="x"}')).toEqual(['crawl_service_webhook_deliveries_total has no label reason']);
    expect(problems('up{job="crawler"}')).toEqual(['up: job crawler is not a scrape job of deploy/prometheus/prometheus.yml']);
    expect(problems('sum by (route) (crawl_service_jobs_running)')).toEqual([expect.stringMatching(/^by \(route\)/)]);
    expect(problems('{__name__="up"}')).toEqual([expect.stringMatching(/without a metric name/)]);
    expect(problems('rate(up[$range])')).toEqual(['unknown variable $range']);
  });
});

describe('deploy/grafana/dashboards/service.json', () => {
  it('is a dashboard whose every panel queries the Prometheus chosen by its datasource variable', () => {
    expect(dashboard).toMatchObject({ uid: expect.any(String), title: expect.any(String), schemaVersion: expect.any(Number) });
    const variables = (dashboard.templating as { list: Dict[] }).list;
    expect(variables).toContainEqual(expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }));
    const datasource = { type: 'prometheus', uid: '${datasource}' };
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    expect(queryPanels.length).toBeGreaterThan(30);
    for (const panel of panels) {
      const { x, y, w, h } = panel.gridPos;
      expect([x, y, w, h].every(Number.isInteger) && x >= 0 && x + w <= 24 && h > 0, `gridPos of "${panel.title}"`).toBe(true);
      if (panel.type === 'row') continue;
      expect(panel.title, `panel ${panel.id}`).toBeTruthy();
      expect(panel.datasource, panel.title).toEqual(datasource);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      expect(new Set(panel.targets!.map((t) => t.refId)).size, panel.title).toBe(panel.targets!.length);
      for (const target of panel.targets!) {
        expect(target.expr, `${panel.title} ${target.refId}`).toMatch(/\S/);
        expect(target.datasource, `${panel.title} ${target.refId}`).toEqual(datasource);
      }
    }
  });

  it('is what Grafana in compose provisions, with the compose Prometheus as its data source', () => {
    const grafana = compose.services.grafana!;
    const provider = parseYaml(read('deploy/grafana/provisioning/dashboards/crawl-service.yml')) as {
      providers: { type: string; options: { path: string } }[];
    };
    const datasources = parseYaml(read('deploy/grafana/provisioning/datasources/prometheus.yml')) as { datasources: Dict[] };
    expect(grafana.volumes).toEqual(
      expect.arrayContaining([
        './deploy/grafana/provisioning:/etc/grafana/provisioning:ro',
        `./deploy/grafana/dashboards:${provider.providers[0]!.options.path}:ro`,
      ]),
    );
    expect(provider.providers).toEqual([expect.objectContaining({ type: 'file' })]);
    expect(datasources.datasources).toEqual([expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true })]);
  });
});

describe('deploy/prometheus/alerts.yml', () => {
  it('holds groups of alerting rules, each with its expression, duration, severity and annotations', () => {
    expect(Object.keys(rules)).toEqual(['groups']);
    const groups = rules.groups as Dict[];
    expect(new Set(groups.map((g) => g.name)).size).toBe(groups.length);
    for (const group of groups) {
      expect(
        Object.keys(group).every((k) => ['name', 'interval', 'rules'].includes(k)),
        String(group.name),
      ).toBe(true);
      expect(group.name).toEqual(expect.any(String));
      expect((group.rules as unknown[]).length).toBeGreaterThan(0);
    }
    const names = alertRules.map((r) => r.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of alertRules) {
      const name = String(rule.alert);
      expect(
        Object.keys(rule).every((k) => ['alert', 'expr', 'for', 'labels', 'annotations'].includes(k)),
        name,
      ).toBe(true);
      expect(name).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      expect(rule.expr, name).toEqual(expect.any(String));
      expect(rule.for, name).toMatch(/^(\d+(ms|s|m|h|d|w|y))+$/);
      expect(rule.labels, name).toEqual({ severity: expect.stringMatching(/^(warning|critical)$/) });
      const annotations = rule.annotations as Record<string, string>;
      expect(Object.keys(annotations).sort(), name).toEqual(['description', 'summary']);
      // A template names only labels the expression's result can carry: labels it names, or any when it is a bare selector.
      for (const [, label] of Object.values(annotations)
        .join(' ')
        .matchAll(/\$labels\.(\w+)/g)) {
        expect(String(rule.expr), `${name} annotations use $labels.${label}`).toMatch(new RegExp(`\\b${label}\\b|^\\s*[a-z_]+(\\{|\\s)`));
      }
    }
    expect(names).toEqual(expect.arrayContaining(['CrawlNoProgress', 'WebhookBacklogGrowing', 'ProcessNotReady', 'RouteErrorRate']));
  });

  it('documents every alert in docs/operations.md, and no other', () => {
    const text = read('docs/operations.md');
    const section = text.slice(text.indexOf('\n### Alerts'), text.indexOf('\n## ', text.indexOf('\n### Alerts')));
    const documented = [...section.matchAll(/^\| `([A-Za-z0-9]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(alertRules.map((r) => String(r.alert)).sort());
  });
});

describe("compose's observability profile", () => {
  it('runs Prometheus with these rules, scraping every replica of each process on its operations port', () => {
    const prometheus = compose.services.prometheus!;
    expect(prometheus.profiles).toEqual(['observability']);
    expect(compose.services.grafana!.profiles).toEqual(['observability']);
    expect(prometheus.volumes).toEqual(
      expect.arrayContaining([
        './deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
        './deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro',
      ]),
    );
    expect(prometheusConfig.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    const ports = { gateway: 'GATEWAY_OPS_PORT', worker: 'WORKER_OPS_PORT', 'browser-host': 'BROWSER_HOST_OPS_PORT' };
    expect(JOBS.sort()).toEqual(Object.keys(ports).sort());
    const targets = prometheusConfig.scrape_configs.map((c) => {
      const service = compose.services[c.job_name]!;
      const port = String(service.environment![ports[c.job_name as keyof typeof ports]]);
      // Listening beyond the container's loopback, so Prometheus reaches it.
      expect(service.environment!.OPS_BIND_ADDRESS, c.job_name).toBe('0.0.0.0');
      expect(c.dns_sd_configs, c.job_name).toEqual([{ names: [c.job_name], type: 'A', port: Number(port) }]);
      return `${c.job_name}:${port}`;
    });
    // ...and never reached by a crawled page or a webhook.
    for (const name of Object.keys(ports)) {
      expect(compose.services[name]!.environment!.CRAWL_REFUSED_ENDPOINTS.split(','), name).toEqual(expect.arrayContaining(targets));
    }
  });
});
