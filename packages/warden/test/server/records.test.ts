// The entries Warden writes (contracts §6, G39): built with their keys in
// canonical order, so hashing an entry serialises it once and copies nothing,
// and carrying what the spec asks of a decision record.

import { canonicalJson } from '@warden/engine';
import { describe, expect, it } from 'vitest';
import { approvalEntry, callEntry, changeEntry, decisionEntry } from '../../src/audit/records.js';
import { Redactor } from '../../src/audit/redact.js';

const redactor = new Redactor();
const redact = (value: unknown, path: string) => redactor.redact(value, path);
const stamp = {
  workspace: 'acme',
  agentId: 'coder-1',
  runId: 'r-1',
  model: 'm1',
  source: 'library',
};
const at = '2026-11-30T10:00:00.000Z';
const result = {
  decision: 'deny' as const,
  outcome: 'deny' as const,
  rule: 'protect-main',
  scope: 'workspace',
  enforcement: 'soft' as const,
  overridable: true,
  prompts: ['command:git push origin main'],
  facets: [
    {
      facet: 'gitPush',
      decision: 'deny' as const,
      scope: 'workspace',
      rule: 'protect-main',
      because: 'ref `main` matches refs [main]',
    },
    { facet: 'command:git push origin main', decision: null },
  ],
  managed: [
    { facet: 'gitPush', decision: 'deny' as const, scope: 'managed:workspace', rule: 'pin' },
  ],
  managedSource: 'env' as const,
  advisories: [{ rule: 'adv', facet: 'gitPush', wouldBe: 'deny' as const }],
  reason: 'denied: …',
};

function inCanonicalOrder(body: object): boolean {
  return JSON.stringify(body) === canonicalJson(body);
}

describe('audit entries', () => {
  it('are built with their keys in canonical order (RFC 8785), every optional part included', () => {
    const call = callEntry(
      stamp,
      {
        id: 'e1',
        callId: 'c1',
        decisionId: 'd1',
        tool: 't',
        arguments: { a: 1, b: 2 },
        status: 'Error',
        durationMs: 3,
        occurredAt: at,
        error: 'boom',
      },
      redact,
    );
    const decision = decisionEntry(
      stamp,
      {
        decisionId: 'd1',
        callId: 'c1',
        occurredAt: at,
        request: {
          workspace: 'acme',
          agent: 'coder-1',
          space: 's',
          mode: 'review',
          tool: 't',
          actions: ['gitPush'],
          command: 'git push origin main',
          worktree: '/w',
          args: { paths: ['a'], refs: ['main'], hosts: ['h'], count: 1, cents: 2 },
        },
        result,
        outcome: 'allow',
        policy: { revision: 3, hash: 'h', managedHash: 'm' },
        approvalId: 'a1',
        override: { approvalId: 'a1', by: 'olga', reason: 'hotfix' },
        failure: 'x',
      },
      't',
      redact,
    );
    const approval = approvalEntry(
      stamp,
      {
        id: 'e2',
        approvalId: 'a1',
        decisionId: 'd1',
        callId: 'c1',
        tool: 't',
        answer: 'remember',
        by: 'alice',
        reason: 'ok',
        outcome: 'allow',
        hours: 8,
        scope: 'workspace',
        rules: ['rem-1'],
        occurredAt: at,
      },
      redact,
    );
    const change = changeEntry({
      id: 'e3',
      workspace: 'acme',
      change: 'rule-revoked',
      by: 'bob',
      details: { rule: 'rem-1' },
      occurredAt: at,
    });
    for (const entry of [call, decision, approval, change])
      expect(inCanonicalOrder(entry.body)).toBe(true);
  });

  it('record a decision with its request, facets, deciding rule and scope, advisories and outcome (G39)', () => {
    const entry = decisionEntry(
      stamp,
      {
        decisionId: 'd1',
        callId: 'c1',
        occurredAt: at,
        request: {
          workspace: 'acme',
          agent: 'coder-1',
          actions: ['gitPush'],
          args: { refs: ['main'] },
        },
        result,
        outcome: 'deny',
        policy: { revision: 1, hash: 'h', managedHash: null },
      },
      'git_push',
      redact,
    );
    expect(entry.body).toMatchObject({
      kind: 'decision',
      agentId: 'coder-1',
      tool: 'git_push',
      outcome: 'deny',
      request: { actions: ['gitPush'], args: { refs: ['main'] } },
      decision: {
        rule: 'protect-main',
        scope: 'workspace',
        enforcement: 'soft',
        overridable: true,
        facets: [
          {
            facet: 'gitPush',
            rule: 'protect-main',
            scope: 'workspace',
            because: 'ref `main` matches refs [main]',
          },
          { facet: 'command:git push origin main', decision: null },
        ],
        advisories: [{ rule: 'adv', facet: 'gitPush', wouldBe: 'deny' }],
        managed: [{ rule: 'pin', scope: 'managed:workspace' }],
        managedSource: 'env',
      },
      policy: { revision: 1 },
    });
  });
});
