// Gaps between what was decided and what ran, as findings of the supervisor
// report (I11): a call reported as run that no decision allowed (a choke
// point that failed open, an adapter bypassed: `uncoveredCalls`, always
// critical), and an allowed call that never reported how it ended
// (`unreportedCalls`, after a grace). Seeded through the real gate and the
// real completion recorder, as the hooks record them; a call that needed no
// decision (a read) is neither.

import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/instance/index.js';
import type { CallContext } from '../../src/gate/gate.js';
import { recordCompletion } from '../../src/gate/completion.js';
import { buildReport } from '../../src/report/report.js';
import { renderMarkdown } from '../../src/report/render.js';
import { parseThresholds } from '../../src/report/thresholds.js';
import type { ThresholdsInput } from '../../src/report/thresholds.js';
import type { ReportData } from '../../src/report/types.js';
import type { TestWarden } from '../support/warden.js';
import { openTestWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'commits', action: 'gitCommit', decision: 'allow' },
    { id: 'no-push', action: 'gitPush', decision: 'deny' },
  ],
};

const START = Date.parse('2026-11-30T08:00:00.000Z');
const MIN = 60_000;
const CODER: CallContext = { workspace: 'acme', agent: 'coder-1', source: 'claude-code' };

let clock = START;
const opened: TestWarden[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.cleanup();
});

async function world(): Promise<TestWarden> {
  clock = START;
  const t = await openTestWarden(POLICY, { clock: () => clock });
  opened.push(t);
  await createAgent(t.data, {
    id: 'sup',
    role: 'supervisor',
    workspace: 'acme',
    tools: { agentInspector: { observableAgents: [] }, messageHuman: {} },
  });
  await createAgent(t.data, { id: 'coder-1', role: 'coder', workspace: 'acme' });
  return t;
}

/** A commit decided (allowed) at the clock's time, under call id `callId`. */
async function commit(t: TestWarden, callId: string): Promise<string> {
  const decided = await t.warden.gate.decide(CODER, {
    tool: 'Bash',
    actions: ['gitCommit'],
    arguments: { command: 'git commit -m x' },
    callId,
  });
  expect(decided.outcome).toBe('allow');
  return decided.auditId as string;
}

function ended(t: TestWarden, callId: string, tool = 'Bash', ungated?: string) {
  return recordCompletion(
    t.warden.gate,
    t.warden.store.audit,
    CODER,
    {
      match: { callId },
      tool,
      status: 'Ok',
      ending: { exitCode: 0 },
      ...(ungated === undefined ? {} : { ungated }),
    },
    clock,
  );
}

async function report(t: TestWarden, thresholds: ThresholdsInput = {}): Promise<ReportData> {
  const parsed = parseThresholds(thresholds);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const built = await buildReport(t.warden.store, {
    supervisor: 'sup',
    data: t.data,
    now: clock,
    since: '24h',
    thresholds: parsed.thresholds,
  });
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.report;
}

const kinds = (r: ReportData) => r.findings.map((f) => f.kind);

describe('gaps between what was decided and what ran (I11)', () => {
  it('calls that ran as decided, and reads that needed no decision, are no finding', async () => {
    const t = await world();
    await commit(t, 'toolu_1');
    clock += MIN;
    await ended(t, 'toolu_1');
    await ended(t, 'toolu_read', 'Read', 'a read is not gated');
    clock += 30 * MIN;
    expect(kinds(await report(t))).toEqual([]);
  });

  it('a call that ran with no decision allowing it is a critical finding naming its entry', async () => {
    const t = await world();
    // No decision at all (the hook was not installed when it was asked).
    const bypassed = await ended(t, 'toolu_nodecision', 'Write');
    // A decision that denied it, and yet the runtime says it ran.
    const denied = await t.warden.gate.decide(CODER, {
      tool: 'Bash',
      actions: ['gitPush'],
      arguments: { command: 'git push origin main' },
      callId: 'toolu_denied',
    });
    expect(denied.outcome).toBe('deny');
    const ranAnyway = await ended(t, 'toolu_denied');
    clock += MIN;
    const r = await report(t);
    const [finding] = r.findings.filter((f) => f.kind === 'uncoveredCalls');
    expect(finding).toMatchObject({
      severity: 'critical',
      agent: 'coder-1',
      evidence: { counts: { calls: 2, minCalls: 1, 'calls:Bash': 1, 'calls:Write': 1 } },
    });
    expect(finding?.statement).toContain(
      'agent `coder-1` reported 2 calls that ran with no decision allowing them',
    );
    expect(finding?.statement).toContain('a choke point failed open or was bypassed');
    expect(finding?.evidence.auditIds).toEqual([bypassed.entry.id, ranAnyway.entry.id]);
    expect(renderMarkdown(r)).toContain('uncovered calls');
    // Just below a raised threshold, no finding.
    expect(kinds(await report(t, { uncoveredCalls: { minCalls: 3 } }))).not.toContain(
      'uncoveredCalls',
    );
  });

  it('an allowed call that never reports how it ended is a finding once the grace is over', async () => {
    const t = await world();
    const silent = await commit(t, 'toolu_silent');
    await commit(t, 'toolu_told');
    await ended(t, 'toolu_told');
    // Ten minutes after the decision (the default grace), it is not yet missing.
    clock += 10 * MIN - 1;
    expect(kinds(await report(t))).not.toContain('unreportedCalls');
    clock += 1;
    const r = await report(t);
    const [finding] = r.findings.filter((f) => f.kind === 'unreportedCalls');
    expect(finding).toMatchObject({
      severity: 'warning',
      evidence: {
        counts: { unreported: 1, allowed: 2, minCalls: 1, graceMinutes: 10, 'unreported:Bash': 1 },
        auditIds: [silent],
      },
    });
    expect(finding?.statement).toContain(
      'agent `coder-1` had 1 allowed call in 24 h that never reported how it ended (`Bash` 1; 2 allowed in all)',
    );
    // Reported late, it is no gap any more.
    await ended(t, 'toolu_silent');
    clock += MIN;
    expect(kinds(await report(t))).not.toContain('unreportedCalls');
  });

  it('unreported calls are critical at `criticalFactor` × the threshold, and the grace is configurable', async () => {
    const t = await world();
    await commit(t, 'toolu_a');
    await commit(t, 'toolu_b');
    clock += 2 * MIN;
    expect(kinds(await report(t))).not.toContain('unreportedCalls');
    const r = await report(t, { unreportedCalls: { graceMinutes: 1 } });
    expect(r.findings.find((f) => f.kind === 'unreportedCalls')).toMatchObject({
      severity: 'critical',
      evidence: { counts: { unreported: 2 } },
    });
  });
});
