// The kill switch from the command line (`warden agent freeze|thaw|frozen`):
// written into the data folder, a running server on the same folder denies
// the agent within a second; through a server, with an admin token. Bad
// arguments are usage errors that say what to give.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import type { Served } from '../support/processes.js';
import { agentToken, api, dataToken, serve } from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
rules:
  - id: commits
    action: gitCommit
    decision: allow
`;

const COMMIT = { tool: 'git_commit', actions: ['gitCommit'] };
const running: Served[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop('SIGTERM')));
});

function folder(): string {
  const data = tempDir();
  const file = join(data, 'policy.yaml');
  writeFileSync(file, POLICY);
  const applied = warden(['policy', 'apply', file, '--data', data]);
  expect(applied.code, applied.stderr).toBe(0);
  return data;
}

/** Polls until `check` holds; fails after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('warden agent freeze|thaw|frozen', () => {
  it('frozen in the data folder, the agent is denied by a server running on it within a second', async () => {
    const data = folder();
    const agent = agentToken(data, 'coder-1');
    const server = await serve(['--data', data]);
    running.push(server);
    const decide = () => api(server.url, agent, 'POST', '/v1/decide', COMMIT);
    expect((await decide()).body).toMatchObject({ outcome: 'allow' });

    const frozen = warden(['agent', 'freeze', 'coder-1', '--reason', 'runaway', '--data', data]);
    expect(frozen.code, frozen.stderr).toBe(0);
    expect(frozen.stdout).toMatch(/^frozen: agent `coder-1` in workspace `acme` \(by cli:/);
    expect(frozen.stdout).toContain('warden agent thaw coder-1');
    const took = await within(1000, async () => (await decide()).body.rule === 'freeze:agent');
    expect(took).toBeLessThan(1000);

    const listed = warden(['agent', 'frozen', '--data', data, '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject({
      freezes: [{ workspace: 'acme', agent: 'coder-1', reason: 'runaway' }],
    });
    const thawed = warden(['agent', 'thaw', 'coder-1', '--data', data]);
    expect(thawed.code, thawed.stderr).toBe(0);
    expect(thawed.stdout).toMatch(/^thawed: agent `coder-1`/);
    await within(1000, async () => (await decide()).body.outcome === 'allow');
    const again = warden(['agent', 'thaw', 'coder-1', '--data', data]);
    expect(again.code).toBe(1);
    expect(again.stderr + again.stdout).toContain('agent `coder-1` is not frozen');
  }, 30_000);

  it('through a server: an admin freezes the workspace; an agent token is refused', async () => {
    const data = folder();
    const admin = dataToken(data, '--role', 'admin', '--name', 'ada');
    const agent = agentToken(data, 'coder-2');
    const server = await serve(['--data', data]);
    running.push(server);
    const on = (token: string) => ['--server', server.url, '--token', token];
    const refused = warden(['agent', 'freeze', '--all', ...on(agent), '--json']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('may not change policies, agents or tasks');
    const frozen = warden([
      'agent',
      'freeze',
      '--all',
      '--reason',
      'incident',
      ...on(admin),
      '--json',
    ]);
    expect(frozen.code, frozen.stderr).toBe(0);
    expect(JSON.parse(frozen.stdout)).toMatchObject({
      freeze: { workspace: 'acme', agent: null, by: 'ada', reason: 'incident' },
      denied: [],
    });
    expect((await api(server.url, agent, 'POST', '/v1/decide', COMMIT)).body).toMatchObject({
      rule: 'freeze:workspace',
    });
    const listed = warden(['agent', 'frozen', ...on(admin)]);
    expect(listed.stdout).toContain('frozen: every agent of workspace `acme` (by ada at');
    expect(warden(['agent', 'thaw', '--all', ...on(admin)]).code).toBe(0);
    expect((await api(server.url, agent, 'POST', '/v1/decide', COMMIT)).body).toMatchObject({
      outcome: 'allow',
    });
  }, 30_000);

  it('a freeze in the managed policy: listed as the operator’s, denied on the server, no admin thaws it (G28)', async () => {
    const data = folder();
    const managedFile = join(data, 'managed.yaml');
    writeFileSync(
      managedFile,
      'version: 1\nfreeze:\n  - workspace: acme\n    agent: coder-1\n    reason: incident 42\n',
    );
    const env = { WARDEN_MANAGED_POLICY: managedFile };
    const admin = dataToken(data, '--role', 'admin', '--name', 'ada');
    const agent = agentToken(data, 'coder-1');
    const colleague = agentToken(data, 'coder-2');
    const server = await serve(['--data', data], env);
    running.push(server);
    const frozen = await api(server.url, agent, 'POST', '/v1/decide', COMMIT);
    expect(frozen.body).toMatchObject({ outcome: 'deny', rule: 'freeze:agent' });
    expect(frozen.body.reason).toContain('until the installation operator removes it');
    expect((await api(server.url, colleague, 'POST', '/v1/decide', COMMIT)).body).toMatchObject({
      outcome: 'allow',
    });

    const listed = await api(server.url, admin, 'GET', '/v1/freezes');
    expect(listed.body).toEqual({
      freezes: [
        {
          workspace: 'acme',
          agent: 'coder-1',
          by: 'the managed policy (`freeze[0]`)',
          reason: 'incident 42',
          frozenAt: null,
          managed: true,
        },
      ],
    });
    const thaw = await api(server.url, admin, 'DELETE', '/v1/agents/coder-1/freeze');
    expect(thaw.status).toBe(409);
    expect(JSON.stringify(thaw.body)).toContain('only the installation operator lifts that freeze');
    // An admin's own freeze beside it thaws; the managed one stays.
    const on = ['--server', server.url, '--token', admin];
    expect(warden(['agent', 'freeze', 'coder-1', ...on]).code).toBe(0);
    expect(warden(['agent', 'thaw', 'coder-1', ...on]).code).toBe(0);
    const again = await api(server.url, agent, 'POST', '/v1/decide', COMMIT);
    expect(again.body).toMatchObject({ outcome: 'deny', rule: 'freeze:agent' });

    const local = warden(['agent', 'thaw', 'coder-1', '--data', data], { env });
    expect(local.code).toBe(1);
    expect(local.stderr + local.stdout).toContain(
      'agent `coder-1` is frozen by the managed policy (`freeze[0]` of the file WARDEN_MANAGED_POLICY names)',
    );
    const shown = warden(['agent', 'frozen', '--data', data], { env });
    expect(shown.stdout).toContain(
      'frozen: agent `coder-1` in workspace `acme` (by the managed policy (`freeze[0]`): incident 42; only the installation operator lifts it',
    );
  }, 30_000);

  it('needs an agent id or --all, not both', () => {
    const data = folder();
    const neither = warden(['agent', 'freeze', '--data', data]);
    expect(neither.code).toBe(1);
    expect(neither.stderr + neither.stdout).toContain('name the agent, or give --all');
    const both = warden(['agent', 'freeze', 'coder-1', '--all', '--data', data]);
    expect(both.code).toBe(1);
    expect(both.stderr + both.stdout).toContain('not both');
  });
});
