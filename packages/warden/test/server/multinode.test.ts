// Two Warden processes on one Postgres (the approvals broker across
// processes, G22, G23): a prompt opened in one is seen and answered in the
// other, the answer releases the caller waiting in the first, and the rule
// "approve for N hours" writes decides the first process's next call.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Warden } from '../../src/warden.js';
import type { ApprovalRecord } from '../../src/store/types.js';
import {
  PG_URL,
  POSTGRES_SKIP,
  UNDER_CI,
  dropSchema,
  requirePostgresUnderCi,
  uniqueSchema,
} from '../support/backends.js';

const AGENT = join(import.meta.dirname, '..', 'fixtures', 'agent-process.mjs');
const POLICY = { version: 1, workspace: 'acme', rules: [] };

function agentProcess(
  schema: string,
  refs: readonly string[],
): { lines: AsyncIterable<string>; done: Promise<number | null> } {
  const child = spawn(process.execPath, [AGENT, PG_URL, schema, ...refs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<number | null>((resolve, reject) => {
    child.on('exit', (code) =>
      code === 0 ? resolve(code) : reject(new Error(`agent process failed (${code}): ${stderr}`)),
    );
  });
  async function* lines(): AsyncIterable<string> {
    let buffer = '';
    for await (const chunk of child.stdout) {
      buffer += (chunk as Buffer).toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        yield buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
      }
    }
  }
  return { lines: lines(), done };
}

describe.skipIf(POSTGRES_SKIP !== null && !UNDER_CI)('two processes on one Postgres', () => {
  it('share pending approvals: an answer given here releases the caller waiting there', async () => {
    requirePostgresUnderCi();
    const schema = uniqueSchema();
    const here = await Warden.open({ databaseUrl: PG_URL, schema, env: {} });
    try {
      await here.putPolicy(POLICY, { author: 'test' });
      const alice = await here.approvals.connect({ name: 'alice', roles: ['approver'] });
      const seen = new Promise<ApprovalRecord>((resolve) => alice.onApproval(resolve));
      const agent = agentProcess(schema, ['feature/login', 'feature/signup']);
      const iterator = agent.lines[Symbol.asyncIterator]();

      const approval = await seen; // heard through LISTEN/NOTIFY from the other process
      expect(approval).toMatchObject({ agent: 'coder-1', state: 'pending', tool: 'git_push' });
      expect((await alice.pending()).map((a) => a.id)).toEqual([approval.id]);
      const answered = await alice.answer(approval.id, {
        kind: 'remember',
        hours: 8,
        scope: 'agent:coder-1',
      });
      expect(answered.ok).toBe(true);

      const first = JSON.parse((await iterator.next()).value as string);
      expect(first).toMatchObject({
        decision: 'prompt',
        outcome: 'allow',
        approvalId: approval.id,
      });
      expect(first.reason).toContain('approved for 8 h in agent:coder-1 by alice');
      // The remembered rule, written here, decides the other process's next call without asking.
      const second = JSON.parse((await iterator.next()).value as string);
      expect(second).toMatchObject({ decision: 'allow', outcome: 'allow', scope: 'agent:coder-1' });
      await agent.done;
      await alice.close();
    } finally {
      await here.close();
      await dropSchema(schema);
    }
  });
});
