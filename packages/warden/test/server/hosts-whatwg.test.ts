// Every choke point that takes a URL reads its host the one way the engine
// does, exactly as a WHATWG URL parser (the fetcher's) reads it (E12):
// Claude Code's WebFetch, the built-in http_fetch, the gateway's host
// mappings. A URL it cannot read leaves the host unknown (G18) — never a
// host the fetcher does not reach.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  compilePolicy,
  decide,
  DEFAULT_TABLE,
  validatePolicy,
  validateRequest,
} from '@warden/engine';
import { describe, expect, it } from 'vitest';
import { extractArgs } from '../../src/gateway/extract.js';
import { planCall, readPreToolUse } from '../../src/hook/claude-code.js';
import type { PreToolUse } from '../../src/hook/claude-code.js';
import { httpFetchTool } from '../../src/tools/builtin/http-fetch.js';

const worktree = mkdtempSync(join(tmpdir(), 'warden-hosts-'));

function input(toolInput: Record<string, unknown>): PreToolUse {
  const read = readPreToolUse({
    hook_event_name: 'PreToolUse',
    cwd: worktree,
    tool_name: 'WebFetch',
    tool_input: toolInput,
    tool_use_id: 'toolu_test',
  });
  if (Array.isArray(read)) throw new Error(read.join('; '));
  return read;
}

/** The decision for a networkEgress request with these args, under a deny on evil.com. */
function decideHosts(args: Record<string, unknown> | undefined): string {
  const policy = validatePolicy(
    {
      version: 1,
      workspace: 'acme',
      rules: [
        { id: 'no-evil', action: 'networkEgress', decision: 'deny', when: { hosts: ['evil.com'] } },
        { id: 'ok', action: 'networkEgress', decision: 'allow', when: { hosts: ['example.org'] } },
      ],
    },
    'workspace',
  );
  if (!policy.ok) throw new Error(JSON.stringify(policy.issues));
  const request = validateRequest({
    workspace: 'acme',
    agent: 'a',
    actions: ['networkEgress'],
    ...(args === undefined ? {} : { args }),
  });
  if (!request.ok) throw new Error(JSON.stringify(request.issues));
  return decide({
    policy: compilePolicy(policy.value),
    managed: null,
    request: request.value,
    at: Date.parse('2026-11-30T12:00:00Z'),
    approverConnected: true,
    classifier: DEFAULT_TABLE,
  }).decision;
}

const CONFUSING = [
  'https://evil.com\\@example.org/',
  'https:/evil.com',
  'https:evil.com/x',
  'http://example.org@evil.com/',
  'https://evil.com#@example.org',
];

describe('WebFetch reads hosts as the fetcher does (E12)', () => {
  it.each(CONFUSING)('`%s` goes to evil.com and meets the rule on it', async (url) => {
    const plan = await planCall(input({ url, prompt: 'p' }));
    expect(plan).toMatchObject({ kind: 'gate', ask: { actions: ['networkEgress'] } });
    const ask = (plan as unknown as { ask: { args?: Record<string, unknown> } }).ask;
    expect(decideHosts(ask.args)).toBe('deny');
  });

  it('a URL the parser cannot read leaves the host unknown: a host rule escalates (G18)', async () => {
    const plan = await planCall(input({ url: 'http://[::1/x', prompt: 'p' }));
    const ask = (plan as unknown as { ask: { args?: Record<string, unknown> } }).ask;
    expect(ask.args).toBeUndefined();
    expect(decideHosts(ask.args)).toBe('prompt');
  });
});

describe('http_fetch gates the host it fetches (E12)', () => {
  it.each(CONFUSING.filter((url) => !url.includes('@')))(
    '`%s` is the host evil.com',
    async (url) => {
      const tool = httpFetchTool();
      const extraction = await tool.extract?.({ url } as never, {} as never);
      expect(extraction?.args).toEqual({ hosts: ['evil.com'] });
    },
  );
});

describe('gateway host mappings read hosts the same way (E12)', () => {
  it.each(CONFUSING)('`%s` is the host evil.com', (url) => {
    const extracted = extractArgs({ hosts: ['url'] }, { url }, worktree);
    expect(extracted).toEqual({ ok: true, args: { hosts: ['evil.com'] } });
  });

  it('a value that is no host leaves the hosts unknown rather than guessed (G18)', () => {
    expect(extractArgs({ hosts: ['url'] }, { url: 'http://[::1/' }, worktree)).toEqual({
      ok: true,
      args: {},
    });
    expect(
      extractArgs({ hosts: ['urls[]'] }, { urls: ['https://example.org/', 'exa mple'] }, worktree),
    ).toEqual({ ok: true, args: {} });
  });
});
