// A small chart of an agent's run receipts over time (I2), drawn as SVG with
// DOM methods: one bar per run for its tokens (in + out), a line for its
// cost, oldest run on the left. No library, no inline styles: geometry is in
// SVG attributes, looks in the stylesheet's `chart-*` classes. The receipts
// table beside it holds the same numbers for those who do not see the chart.

const NS = 'http://www.w3.org/2000/svg';
const WIDTH = 640;
const HEIGHT = 200;
const MARGIN = { top: 24, right: 56, bottom: 30, left: 64 };

/**
 * An SVG element with attributes and children (strings become text nodes).
 * @param {string} tag @param {Record<string, string | number>} [attrs] @param {...(Node | string | null)} children
 */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) {
    if (child === null) continue;
    el.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return el;
}

/** @param {number} n */
const fmt = (n) => n.toLocaleString('en-US');

/** `2026-12-01 12:48`. @param {string} iso */
function short(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * Where each run goes: the runs oldest first, their tokens and cost, and
 * the scales that place them.
 * @param {readonly import('../../lib/types.js').Run[]} runs at least one
 */
function layout(runs) {
  const sorted = [...runs].sort((a, b) => (a.startedAt < b.startedAt ? -1 : 1));
  const tokens = sorted.map((r) => (r.tokensIn ?? 0) + (r.tokensOut ?? 0));
  const cost = sorted.map((r) => r.costCents ?? 0);
  const maxTokens = Math.max(1, ...tokens);
  const maxCost = Math.max(1, ...cost);
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotW / sorted.length;
  return {
    sorted,
    tokens,
    cost,
    maxTokens,
    maxCost,
    plotW,
    plotH,
    barW: Math.max(2, Math.min(28, slot * 0.6)),
    xOf: (/** @type {number} */ i) => MARGIN.left + slot * i + slot / 2,
    yTokens: (/** @type {number} */ v) => MARGIN.top + plotH - (v / maxTokens) * plotH,
    yCost: (/** @type {number} */ v) => MARGIN.top + plotH - (v / maxCost) * plotH,
  };
}

/** @typedef {ReturnType<typeof layout>} Layout */

/** Grid and axes: 0, half and the maximum of each measure, and the first and last time. @param {Layout} l */
function grid(l) {
  const g = svg('g', { class: 'ag-chart-grid', 'aria-hidden': 'true' });
  for (const share of [0, 0.5, 1]) {
    const y = MARGIN.top + l.plotH - share * l.plotH;
    g.appendChild(
      svg('line', {
        x1: MARGIN.left,
        x2: MARGIN.left + l.plotW,
        y1: y,
        y2: y,
        class: 'ag-chart-rule',
      }),
    );
    g.appendChild(
      svg(
        'text',
        {
          x: MARGIN.left - 6,
          y: y + 4,
          'text-anchor': 'end',
          class: 'ag-chart-label ag-chart-label-tokens',
        },
        fmt(Math.round(l.maxTokens * share)),
      ),
    );
    g.appendChild(
      svg(
        'text',
        {
          x: MARGIN.left + l.plotW + 6,
          y: y + 4,
          'text-anchor': 'start',
          class: 'ag-chart-label ag-chart-label-cost',
        },
        `${fmt(Math.round(l.maxCost * share))} ¢`,
      ),
    );
  }
  g.appendChild(
    svg(
      'text',
      { x: MARGIN.left, y: HEIGHT - 8, 'text-anchor': 'start', class: 'ag-chart-label' },
      short(l.sorted[0].startedAt),
    ),
  );
  if (l.sorted.length > 1)
    g.appendChild(
      svg(
        'text',
        { x: MARGIN.left + l.plotW, y: HEIGHT - 8, 'text-anchor': 'end', class: 'ag-chart-label' },
        short(l.sorted[l.sorted.length - 1].startedAt),
      ),
    );
  return g;
}

/** One bar per run for its tokens. @param {Layout} l */
function bars(l) {
  const g = svg('g', { class: 'ag-chart-bars' });
  l.sorted.forEach((run, i) => {
    const y = l.yTokens(l.tokens[i]);
    g.appendChild(
      svg(
        'rect',
        {
          class: `ag-chart-bar${run.status === 'failed' ? ' ag-chart-bar-failed' : ''}`,
          x: (l.xOf(i) - l.barW / 2).toFixed(1),
          y: y.toFixed(1),
          width: l.barW.toFixed(1),
          height: Math.max(0, MARGIN.top + l.plotH - y).toFixed(1),
        },
        svg(
          'title',
          {},
          `run ${run.id}, ${short(run.startedAt)}: ${fmt(l.tokens[i])} tokens, ${fmt(l.cost[i])} cents (${run.status})`,
        ),
      ),
    );
  });
  return g;
}

/** A line and a dot per run for its cost. @param {Layout} l */
function costLine(l) {
  const points = l.sorted.map((_, i) => `${l.xOf(i).toFixed(1)},${l.yCost(l.cost[i]).toFixed(1)}`);
  const g = svg('g', { class: 'ag-chart-cost' });
  if (l.sorted.length > 1)
    g.appendChild(svg('polyline', { class: 'ag-chart-line', points: points.join(' ') }));
  l.sorted.forEach((run, i) =>
    g.appendChild(
      svg(
        'circle',
        {
          class: 'ag-chart-dot',
          cx: l.xOf(i).toFixed(1),
          cy: l.yCost(l.cost[i]).toFixed(1),
          r: 3.5,
        },
        svg('title', {}, `run ${run.id}: ${fmt(l.cost[i])} cents`),
      ),
    ),
  );
  return g;
}

/** What the bars and the dots stand for. */
function legend() {
  return svg(
    'g',
    { class: 'ag-chart-legend', 'aria-hidden': 'true' },
    svg('rect', { x: MARGIN.left, y: 2, width: 10, height: 10, class: 'ag-chart-swatch' }),
    svg('text', { x: MARGIN.left + 14, y: 11, class: 'ag-chart-label' }, 'tokens (left scale)'),
    svg('circle', { cx: MARGIN.left + 150, cy: 7, r: 3.5, class: 'ag-chart-swatch-dot' }),
    svg(
      'text',
      { x: MARGIN.left + 158, y: 11, class: 'ag-chart-label' },
      'cost in cents (right scale)',
    ),
  );
}

/**
 * The chart for `runs` (any order); null when there is none.
 * @param {readonly import('../../lib/types.js').Run[]} runs
 * @param {string} idBase unique prefix for the title and description ids
 */
export function runChart(runs, idBase) {
  if (runs.length === 0) return null;
  const l = layout(runs);
  const { sorted, tokens, cost } = l;
  const titleId = `${idBase}-title`;
  const descId = `${idBase}-desc`;
  const totalTokens = tokens.reduce((a, b) => a + b, 0);
  const totalCost = cost.reduce((a, b) => a + b, 0);
  return svg(
    'svg',
    {
      class: 'ag-chart',
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      role: 'img',
      'aria-labelledby': `${titleId} ${descId}`,
      preserveAspectRatio: 'xMidYMid meet',
    },
    svg('title', { id: titleId }, 'Tokens and cost per run, oldest first'),
    svg(
      'desc',
      { id: descId },
      `${sorted.length} ${sorted.length === 1 ? 'run' : 'runs'} from ${short(sorted[0].startedAt)} to ${short(sorted[sorted.length - 1].startedAt)}: ${fmt(totalTokens)} tokens and ${fmt(totalCost)} cents in all; the most tokens in one run ${fmt(Math.max(...tokens))}, the highest cost ${fmt(Math.max(...cost))} cents.`,
    ),
    grid(l),
    bars(l),
    costLine(l),
    legend(),
  );
}
