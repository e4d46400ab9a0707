// A decision as a person reads it at a glance: the verdict, the reason, then
// one line per facet with the rule and scope that decided it.

import type { DecideInput, Explained, FacetEntry } from '@warden/engine';
import type { Style } from './io.js';
import { style } from './io.js';

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function verdict(s: Style, decision: string, outcome: string): string {
  const word = decision.toUpperCase();
  const painted =
    decision === 'allow' ? s.green(word) : decision === 'deny' ? s.red(word) : s.yellow(word);
  return outcome === decision || (decision === 'prompt' && outcome === 'ask')
    ? s.bold(painted)
    : `${s.bold(painted)} → ${s.bold(outcome === 'deny' ? s.red('DENY') : outcome.toUpperCase())}`;
}

function facetTable(s: Style, facets: readonly FacetEntry[], indent: string): string[] {
  const nameWidth = Math.min(48, Math.max(6, ...facets.map((f) => f.facet.length)) + 2);
  const ruleWidth = Math.min(40, Math.max(4, ...facets.map((f) => (f.rule ?? '').length)) + 2);
  const lines = [
    s.dim(`${indent}${pad('facet', nameWidth)}${pad('result', 8)}${pad('rule', ruleWidth)}scope`),
  ];
  for (const facet of facets) {
    const decision = facet.decision ?? '—';
    const rule = facet.decision === null ? s.dim('no rule matches') : (facet.rule ?? '');
    lines.push(
      `${indent}${pad(facet.facet, nameWidth)}${pad(decision, 8)}${facet.decision === null ? rule : pad(rule, ruleWidth)}${facet.scope ?? ''}`,
    );
    if (facet.because !== undefined)
      lines.push(s.dim(`${indent}${' '.repeat(nameWidth)}  ${facet.because}`));
  }
  return lines;
}

export function renderDecision(explained: Explained, input: DecideInput, color: boolean): string {
  const s = style(color);
  const r = explained.result;
  const request = input.request;
  const what = request.command ?? (request.actions ?? []).join(', ');
  const who = [
    `agent ${request.agent}`,
    request.space === undefined ? null : `space ${request.space}`,
    request.mode === undefined ? null : `mode ${request.mode}`,
  ]
    .filter((part) => part !== null)
    .join(', ');
  const lines: string[] = [];
  lines.push(`${verdict(s, r.decision, r.outcome)}  ${what}  ${s.dim(`(${who})`)}`);
  lines.push(`  ${r.reason}`);
  const details = [`decided by ${r.rule} in ${r.scope}`];
  if (r.enforcement !== null)
    details.push(
      r.overridable ? 'soft: overridable with a reason' : `${r.enforcement}: not overridable`,
    );
  if (r.decision === 'prompt')
    details.push(r.outcome === 'ask' ? 'an approver is connected' : 'no approver connected');
  lines.push(s.dim(`  ${details.join(' · ')}`));
  if (r.prompts.length > 0) lines.push(`  asks about: ${r.prompts.join(', ')}`);
  lines.push('');
  lines.push(...facetTable(s, r.facets, '  '));
  if (r.advisories.length > 0) {
    lines.push('');
    lines.push('  advisory rules (reported, not enforced):');
    for (const a of r.advisories) lines.push(`    ${a.rule} would make ${a.facet} ${a.wouldBe}`);
  }
  lines.push('');
  if (r.managed === null) lines.push(s.dim('  managed layer: none loaded'));
  else {
    lines.push(
      `  managed layer (from ${r.managedSource ?? 'unknown'}):${r.managed.length === 0 ? ' no opinion' : ''}`,
    );
    if (r.managed.length > 0) lines.push(...facetTable(s, r.managed, '    '));
  }
  return `${lines.join('\n')}\n`;
}
