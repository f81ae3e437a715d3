// Charts of bench:scale as plain SVG (no dependency): a grid of panels, each a line
// chart of one or more series over a shared x axis, or horizontal bars. Each panel has
// its own y scale from 0, so a flat curve looks flat and a growing one grows.

export interface Series {
  name: string;
  points: [number, number][];
}

export type Panel =
  { title: string; kind: 'lines'; xLabel: string; series: Series[] } | { title: string; kind: 'bars'; bars: { label: string; value: number }[] };

const WIDTH = 420;
const HEIGHT = 240;
const COLUMNS = 2;
const MARGIN = { left: 56, right: 12, top: 28, bottom: 40 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round number to label an axis with. */
function fmt(n: number): string {
  if (n === 0) return '0';
  if (Math.abs(n) >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (Math.abs(n) >= 1e4) return `${(n / 1e3).toFixed(0)}k`;
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toPrecision(3);
}

function linesPanel(p: Extract<Panel, { kind: 'lines' }>, w: number, h: number): string[] {
  const all = p.series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...all.map(([x]) => x));
  const yMax = (Math.max(0, ...all.map(([, y]) => y)) || 1) * 1.1;
  const x = (v: number) => MARGIN.left + (v / xMax) * (w - MARGIN.left - MARGIN.right);
  const y = (v: number) => h - MARGIN.bottom - (v / yMax) * (h - MARGIN.top - MARGIN.bottom);
  const out = [
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(xMax)}" y2="${y(0)}" stroke="#333"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(0)}" y2="${y(yMax)}" stroke="#333"/>`,
    `<text x="${x(0) - 4}" y="${y(yMax / 1.1) + 4}" text-anchor="end" font-size="10">${fmt(yMax / 1.1)}</text>`,
    `<text x="${x(0) - 4}" y="${y(0) + 4}" text-anchor="end" font-size="10">0</text>`,
    `<text x="${x(xMax)}" y="${y(0) + 14}" text-anchor="end" font-size="10">${fmt(xMax)}</text>`,
    `<text x="${(x(0) + x(xMax)) / 2}" y="${h - 8}" text-anchor="middle" font-size="11">${esc(p.xLabel)}</text>`,
  ];
  p.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const pts = s.points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' ');
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts}"/>`);
    for (const [a, b] of s.points) out.push(`<circle cx="${x(a).toFixed(1)}" cy="${y(b).toFixed(1)}" r="2.5" fill="${color}"/>`);
    if (p.series.length > 1)
      out.push(`<text x="${w - MARGIN.right}" y="${MARGIN.top + 12 * i}" text-anchor="end" font-size="10" fill="${color}">${esc(s.name)}</text>`);
  });
  return out;
}

function barsPanel(p: Extract<Panel, { kind: 'bars' }>, w: number, h: number): string[] {
  const max = Math.max(0, ...p.bars.map((b) => b.value)) || 1;
  const labelWidth = 190;
  const row = (h - MARGIN.top - 8) / Math.max(1, p.bars.length);
  return p.bars.flatMap((b, i) => {
    const top = MARGIN.top + i * row;
    const len = (b.value / max) * (w - labelWidth - 50);
    return [
      `<text x="${labelWidth - 4}" y="${top + row * 0.7}" text-anchor="end" font-size="10">${esc(b.label)}</text>`,
      `<rect x="${labelWidth}" y="${top + row * 0.15}" width="${len.toFixed(1)}" height="${(row * 0.7).toFixed(1)}" fill="${COLORS[0]}"/>`,
      `<text x="${labelWidth + len + 4}" y="${top + row * 0.7}" font-size="10">${fmt(b.value)}</text>`,
    ];
  });
}

/** The whole chart: `title` over the panels, two a row. */
export function svgChart(title: string, panels: Panel[]): string {
  const rows = Math.ceil(panels.length / COLUMNS);
  const width = WIDTH * COLUMNS;
  const height = 30 + HEIGHT * rows;
  const body = panels.map((p, i) => {
    const parts = p.kind === 'lines' ? linesPanel(p, WIDTH, HEIGHT) : barsPanel(p, WIDTH, HEIGHT);
    const dx = (i % COLUMNS) * WIDTH;
    const dy = 30 + Math.floor(i / COLUMNS) * HEIGHT;
    return `<g transform="translate(${dx},${dy})"><text x="${WIDTH / 2}" y="16" text-anchor="middle" font-size="12" font-weight="bold">${esc(p.title)}</text>${parts.join('')}</g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/><text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>${body.join('')}</svg>\n`;
}
