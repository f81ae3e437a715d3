// What `npm start` prints once everything answers: where the API, the Temporal UI
// and the metrics are, and the API key when this start created it.

export interface ReadyBannerFacts {
  apiBase: string;
  /** Unset for an external Temporal. */
  temporalUiUrl: string | undefined;
  metrics: { gateway: string; worker: string; browserHost: string };
  /** The default team's key when it was created now (it is stored as a hash, so shown this once). */
  newKey: string | undefined;
  readyIn: string;
  dataDir: string;
}

export function readyBanner(facts: ReadyBannerFacts): string {
  const lines = [
    '',
    `  API:          ${facts.apiBase}/v2   (health: ${facts.apiBase}/health)`,
    `  Temporal UI:  ${facts.temporalUiUrl ?? '(external Temporal: see your cluster UI)'}`,
    `  Metrics:      gateway ${facts.metrics.gateway}`,
    `                worker ${facts.metrics.worker}`,
    `                browser host ${facts.metrics.browserHost}`,
  ];
  if (facts.newKey) {
    lines.push(`  API key:      ${facts.newKey}`, '                (created for team "default"; shown only this once, stored as a hash)');
  } else {
    lines.push('  API key:      use the key printed on first start, or `npm run cli -- key create --team default`');
  }
  lines.push(`  ready in ${facts.readyIn}. Ctrl-C stops everything; data stays in ${facts.dataDir}.`, '');
  return `${lines.join('\n')}\n`;
}
