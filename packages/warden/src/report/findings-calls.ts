// Findings from the audit log (inspector.md §1: the first source): error
// streaks, error rates, denial spikes, repeated identical calls, and the gaps
// between what was decided and what ran — calls no decision allowed, and
// allowed calls that never said how they ended. Pure: the evidence and the
// thresholds come in, drafts go out.

import type { DetectContext, Draft } from './draft.js';
import { chronological, groupBy, isCritical } from './draft.js';
import { compareText, count, duration, iso, oneDecimal, percent, round2 } from './format.js';
import { codeName, quoteText } from './quote.js';
import type { AgentEvidence, AllowedFact, CallFact } from './types.js';

/** The longest run of `Error` calls of one tool, in time order. */
export function errorStreaks(ctx: DetectContext, agent: AgentEvidence): Draft[] {
  const { minLength } = ctx.thresholds.errorStreak;
  const drafts: Draft[] = [];
  for (const [tool, calls] of groupBy(agent.calls, (c) => c.tool)) {
    let longest: CallFact[] = [];
    let current: CallFact[] = [];
    let streaks = 0;
    for (const call of calls) {
      if (call.status === 'Error') {
        current.push(call);
        if (current.length === minLength) streaks += 1;
        if (current.length > longest.length) longest = current;
      } else {
        current = [];
      }
    }
    if (longest.length < minLength) continue;
    const first = longest[0] as CallFact;
    const last = longest[longest.length - 1] as CallFact;
    drafts.push({
      kind: 'errorStreak',
      agent: agent.agent,
      tool,
      critical: isCritical(ctx, longest.length, minLength),
      statement:
        `agent ${codeName(agent.agent)} made ${count(longest.length)} ${codeName(tool)} calls in a row ` +
        `with status \`Error\`, from ${iso(first.at)} to ${iso(last.at)}` +
        (streaks > 1
          ? ` (${count(streaks)} streaks of at least ${count(minLength)} in ${ctx.window.label})`
          : ''),
      counts: { streak: longest.length, streaks, minLength },
      // The first few and the last: where the streak began and how long it lasted.
      auditIds: (longest.length <= ctx.examples
        ? longest
        : [...longest.slice(0, ctx.examples - 1), last]
      ).map((c) => c.id),
    });
  }
  return drafts;
}

/** Per tool over the whole window: how many calls ended in `Error`, and what share of them. */
export function errorRates(ctx: DetectContext, agent: AgentEvidence): Draft[] {
  const { minErrors, minShare } = ctx.thresholds.errorRate;
  const totals = new Map<string, { calls: number; errors: number }>();
  for (const c of agent.counts) {
    const t = totals.get(c.tool) ?? { calls: 0, errors: 0 };
    t.calls += c.count;
    if (c.status === 'Error') t.errors += c.count;
    totals.set(c.tool, t);
  }
  const drafts: Draft[] = [];
  for (const [tool, { calls, errors }] of [...totals.entries()].sort(([a], [b]) =>
    compareText(a, b),
  )) {
    const share = calls === 0 ? 0 : errors / calls;
    if (errors < minErrors || share < minShare) continue;
    drafts.push({
      kind: 'errorRate',
      agent: agent.agent,
      tool,
      critical: share >= Math.min(1, ctx.thresholds.severity.criticalFactor * minShare),
      statement:
        `agent ${codeName(agent.agent)} made ${count(errors)} ${codeName(tool)} calls with status \`Error\` ` +
        `in ${ctx.window.label} (${percent(share)} of its ${count(calls)} ${codeName(tool)} calls)`,
      counts: { errors, calls, share: round2(share), minErrors, minShare },
      auditIds: chronological(agent.calls)
        .filter((c) => c.tool === tool && c.status === 'Error')
        .slice(0, ctx.examples)
        .map((c) => c.id),
    });
  }
  return drafts;
}

/** `Denied` calls of the window against the mean of the agent's own previous windows. */
export function denialSpikes(ctx: DetectContext, agent: AgentEvidence): Draft[] {
  const { minDenied, factor, baselineWindows } = ctx.thresholds.denialSpike;
  const denied = agent.counts
    .filter((c) => c.status === 'Denied')
    .reduce((sum, c) => sum + c.count, 0);
  // Windows with no entries count as 0: a new agent's baseline is low, not unknown.
  const baseline = Array.from({ length: baselineWindows }, (_, i) => agent.deniedBaseline[i] ?? 0);
  const mean = baseline.reduce((sum, n) => sum + n, 0) / baselineWindows;
  const threshold = Math.max(minDenied, factor * mean);
  if (denied < threshold) return [];
  const against =
    mean === 0
      ? `with none in the ${count(baselineWindows)} windows of the same length before`
      : `${oneDecimal(denied / mean)}× its mean of ${oneDecimal(mean)} per window over the ${count(baselineWindows)} windows before`;
  const tools = agent.counts
    .filter((c) => c.status === 'Denied')
    .sort((a, b) => b.count - a.count || compareText(a.tool, b.tool));
  const counts: Record<string, number> = {
    denied,
    baselineMean: round2(mean),
    threshold: round2(threshold),
    baselineWindows,
    minDenied,
    factor,
  };
  for (const t of tools.slice(0, ctx.examples)) counts[`denied:${t.tool}`] = t.count;
  return [
    {
      kind: 'denialSpike',
      agent: agent.agent,
      critical: isCritical(ctx, denied, threshold),
      statement: `agent ${codeName(agent.agent)} had ${count(denied)} calls with status \`Denied\` in ${ctx.window.label}, ${against}`,
      counts,
      auditIds: chronological(agent.calls)
        .filter((c) => c.status === 'Denied')
        .slice(0, ctx.examples)
        .map((c) => c.id),
    },
  ];
}

/** The most calls with identical arguments that fall within one span (two pointers over time). */
function densest(calls: readonly CallFact[], spanMs: number): { from: number; to: number } {
  let best = { from: 0, to: 0 };
  let from = 0;
  for (let to = 0; to < calls.length; to += 1) {
    while ((calls[to] as CallFact).at - (calls[from] as CallFact).at > spanMs) from += 1;
    if (to - from > best.to - best.from) best = { from, to };
  }
  return best;
}

/** Loops: the same tool with identical arguments, many times within a short span. */
export function repeatedCalls(ctx: DetectContext, agent: AgentEvidence): Draft[] {
  const { minRepeats, spanMinutes } = ctx.thresholds.repeatedCalls;
  const spanMs = spanMinutes * 60_000;
  const drafts: Draft[] = [];
  for (const [, calls] of groupBy(agent.calls, (c) => `${c.tool}\u0000${c.argsHash}`)) {
    if (calls.length < minRepeats) continue;
    const { from, to } = densest(calls, spanMs);
    const repeats = to - from + 1;
    if (repeats < minRepeats) continue;
    const cluster = calls.slice(from, to + 1);
    const first = cluster[0] as CallFact;
    const last = cluster[cluster.length - 1] as CallFact;
    drafts.push({
      kind: 'repeatedCalls',
      agent: agent.agent,
      tool: first.tool,
      critical: isCritical(ctx, repeats, minRepeats),
      statement:
        `agent ${codeName(agent.agent)} called ${codeName(first.tool)} ${count(repeats)} times with identical ` +
        `arguments within ${duration(last.at - first.at)}, from ${iso(first.at)}` +
        (calls.length > repeats ? ` (${count(calls.length)} times in ${ctx.window.label})` : ''),
      counts: {
        repeats,
        inWindow: calls.length,
        spanMs: last.at - first.at,
        minRepeats,
        spanMinutes,
      },
      auditIds: cluster.slice(0, ctx.examples).map((c) => c.id),
      quoted: [
        {
          source: 'toolArguments',
          id: first.id,
          text: quoteText(first.args, ctx.redact, ctx.quoteChars),
        },
      ],
    });
  }
  return drafts;
}

/** Per tool, `tool n`, most first: which tools a gap is in. */
function toolCounts(items: readonly { readonly tool: string }[]): [string, number][] {
  const by = new Map<string, number>();
  for (const item of items) by.set(item.tool, (by.get(item.tool) ?? 0) + 1);
  return [...by.entries()].sort(([a, x], [b, y]) => y - x || compareText(a, b));
}

/**
 * Calls reported as run that no decision allowed: a choke point failed open
 * or was gone round (an adapter bypassed, a hook missing for a while). Each
 * is a call the policy never saw, so one is already critical.
 */
export function uncoveredCalls(ctx: DetectContext, agent: AgentEvidence): Draft[] {
  const { minCalls } = ctx.thresholds.uncoveredCalls;
  const found = chronological(agent.calls).filter((c) => c.uncovered);
  if (found.length < minCalls) return [];
  const tools = toolCounts(found);
  const counts: Record<string, number> = { calls: found.length, minCalls };
  for (const [tool, n] of tools.slice(0, ctx.examples)) counts[`calls:${tool}`] = n;
  return [
    {
      kind: 'uncoveredCalls',
      agent: agent.agent,
      critical: true,
      statement:
        `agent ${codeName(agent.agent)} reported ${count(found.length)} call${found.length === 1 ? '' : 's'} ` +
        `that ran with no decision allowing ${found.length === 1 ? 'it' : 'them'} in ${ctx.window.label} ` +
        `(${tools.map(([tool, n]) => `${codeName(tool)} ${count(n)}`).join(', ')}): ` +
        'a choke point failed open or was bypassed',
      counts,
      auditIds: found.slice(0, ctx.examples).map((c) => c.id),
    },
  ];
}

/**
 * Calls a decision allowed that never reported how they ended, counting
 * decisions made more than the grace before the window's end: an adapter
 * that does not report (a hook installed without its completion events), or
 * a call that never finished.
 */
export function unreportedCalls(ctx: DetectContext, agent: AgentEvidence): Draft[] {
  const { minCalls, graceMinutes } = ctx.thresholds.unreportedCalls;
  // Calls read only in part: a report beyond the cap may be there, so nothing is claimed missing.
  if (agent.callsCapped) return [];
  const reported = new Set(agent.calls.map((c) => c.decisionId));
  const cutoff = ctx.window.untilMs - graceMinutes * 60_000;
  const missing = [...agent.allowed]
    .sort((a, b) => a.at - b.at || compareText(a.id, b.id))
    .filter((d: AllowedFact) => d.at <= cutoff && !reported.has(d.id));
  if (missing.length < minCalls) return [];
  const tools = toolCounts(missing);
  const counts: Record<string, number> = {
    unreported: missing.length,
    allowed: agent.allowed.length,
    minCalls,
    graceMinutes,
  };
  for (const [tool, n] of tools.slice(0, ctx.examples)) counts[`unreported:${tool}`] = n;
  return [
    {
      kind: 'unreportedCalls',
      agent: agent.agent,
      critical: isCritical(ctx, missing.length, minCalls),
      statement:
        `agent ${codeName(agent.agent)} had ${count(missing.length)} allowed call${missing.length === 1 ? '' : 's'} ` +
        `in ${ctx.window.label} that never reported how ${missing.length === 1 ? 'it' : 'they'} ended ` +
        `(${tools.map(([tool, n]) => `${codeName(tool)} ${count(n)}`).join(', ')}; ` +
        `${count(agent.allowed.length)} allowed in all)`,
      counts,
      auditIds: missing.slice(0, ctx.examples).map((d) => d.id),
    },
  ];
}
