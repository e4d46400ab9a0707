// `GET /v1/policy/proof`: the console's view of provable rules — every deny
// and prompt rule of the workspace's policy as decisions read it now, tried
// against the disguises of its target, with a verdict each (the answer is
// checked against its declared shape, as every answer in the tests is).

import { afterEach, describe, expect, it } from 'vitest';
import { openTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let h: TestServer;
afterEach(async () => {
  await h.cleanup();
});

describe('GET /v1/policy/proof', () => {
  it('gives each deny and prompt rule its verdict; a reader may ask, nobody without a token', async () => {
    h = await openTestServer({
      version: 1,
      workspace: 'acme',
      rules: [
        { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
        { id: 'no-deletes', action: 'fileDelete', decision: 'deny' },
        { id: 'no-deletes-again', action: 'fileDelete', decision: 'deny' },
        { id: 'tests', command: 'npm test', decision: 'allow' },
      ],
    });
    const answer = await h.call('GET', '/v1/policy/proof', h.tokens.viewer);
    expect(answer.status, answer.text).toBe(200);
    const rules = answer.body.rules as { rule: string; verdict: string; tried: number }[];
    expect(rules.map((r) => r.rule)).toEqual(['protect-main', 'no-deletes', 'no-deletes-again']);
    // Held against every disguise a reader sees; a script in a file only the sandbox stops.
    expect(rules.find((r) => r.rule === 'protect-main')).toMatchObject({ verdict: 'sandbox' });
    expect(rules.find((r) => r.rule === 'protect-main')?.tried).toBeGreaterThan(10);
    expect(rules.find((r) => r.rule === 'no-deletes-again')).toMatchObject({ verdict: 'dead' });
    expect(answer.body.counts).toMatchObject({ holds: 0, sandbox: 2, dead: 1, bypassable: 0 });
    expect((await h.call('GET', '/v1/policy/proof')).status).toBe(401);
  });
});

describe("the rule editor's preview checks a rule's examples", () => {
  it('a proposed document whose example the policy decides otherwise is a 422 naming the example', async () => {
    h = await openTestServer({ version: 1, workspace: 'acme', rules: [] });
    const rule = {
      id: 'no-rm',
      command: 'rm -rf',
      decision: 'deny',
      examples: { deny: ['sudo rm -rf build'], allow: ['ls'] },
    };
    const ok = await h.call('POST', '/v1/permissions/preview', h.tokens.viewer, {
      document: { version: 1, workspace: 'acme', rules: [rule] },
    });
    expect(ok.status, ok.text).toBe(200);
    const wrong = await h.call('POST', '/v1/permissions/preview', h.tokens.viewer, {
      document: {
        version: 1,
        workspace: 'acme',
        rules: [{ ...rule, examples: { allow: ['rm notes.txt'] } }],
      },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('rules[0].examples.allow[0]');
    expect(wrong.text).toContain('lists `rm notes.txt` as allow, but the policy decides prompt');
  });
});
