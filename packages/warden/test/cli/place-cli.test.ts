// Placing an agent from the command line (`warden agent place`, contracts §8):
// written into the data folder, a server running on it decides the agent's
// calls in the new space and mode soon after (it keeps registrations no
// longer than a policy snapshot); through a server, with an admin token, what
// the command does not name stays as it was. Bad arguments are usage errors.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import { eventually } from '../support/warden.js';
import type { Served } from '../support/processes.js';
import { agentToken, api, dataToken, serve } from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
spaces:
  infra: { autonomy: proposeOnly }
modes:
  review:
    preset:
      - { action: gitCommit, decision: deny }
rules:
  - id: commits
    action: gitCommit
    decision: allow
    scope: workspace
`;

const PUSH = { tool: 'git_push', actions: ['gitPush'], args: { refs: ['feature/x'] } };
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

describe('warden agent place', () => {
  it('in the data folder: a server on it decides the agent in its new space', async () => {
    const data = folder();
    const agent = agentToken(data, 'coder-1');
    const server = await serve(['--data', data]);
    running.push(server);
    const decide = () => api(server.url, agent, 'POST', '/v1/decide', PUSH);
    expect((await decide()).body).toMatchObject({ decision: 'prompt' });

    const placed = warden(['agent', 'place', 'coder-1', '--space', 'infra', '--data', data]);
    expect(placed.code, placed.stderr).toBe(0);
    expect(placed.stdout).toBe(
      'placed: agent `coder-1` of workspace `acme` acts in space `infra` and no mode when its token binds none\n',
    );
    await eventually(async () => (await decide()).body.rule === 'autonomy:proposeOnly', 10_000);
    const me = await api(server.url, agent, 'GET', '/v1/me');
    expect(me.body.placement).toMatchObject({ space: 'infra', spaceBy: 'registration' });

    // Taken out of every space, the push is a prompt again.
    const out = warden(['agent', 'place', 'coder-1', '--no-space', '--data', data, '--json']);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ id: 'coder-1', space: null, mode: null });
    await eventually(async () => (await decide()).body.decision === 'prompt', 10_000);
  }, 30_000);

  it('through a server: an admin places, what is not named stays; an agent token is refused', async () => {
    const data = folder();
    const admin = dataToken(data, '--role', 'admin', '--name', 'ada');
    const agent = agentToken(data, 'coder-2');
    const server = await serve(['--data', data]);
    running.push(server);
    const put = await api(server.url, admin, 'PUT', '/v1/agents/coder-2', {
      name: 'Coder Two',
      role: 'coder',
      space: 'infra',
    });
    expect(put.status).toBe(200);
    const env = { WARDEN_URL: server.url, WARDEN_TOKEN: admin };
    const placed = warden(['agent', 'place', 'coder-2', '--mode', 'review', '--json'], { env });
    expect(placed.code, placed.stderr).toBe(0);
    expect(JSON.parse(placed.stdout)).toMatchObject({
      id: 'coder-2',
      name: 'Coder Two',
      role: 'coder',
      space: 'infra',
      mode: 'review',
    });
    // The agent's next call acts there.
    const me = await api(server.url, agent, 'GET', '/v1/me');
    expect(me.body.placement).toEqual({
      space: 'infra',
      spaceBy: 'registration',
      mode: 'review',
      modeBy: 'registration',
    });
    const refused = warden(['agent', 'place', 'coder-2', '--space', 'infra'], {
      env: { WARDEN_URL: server.url, WARDEN_TOKEN: agent },
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/forbidden|may not|role/i);
  }, 30_000);

  it('says what to give when nothing or something unusable is named', () => {
    const data = folder();
    const none = warden(['agent', 'place', 'coder-1', '--data', data]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('say where the agent acts: --space S and/or --mode M');
    const empty = warden(['agent', 'place', 'coder-1', '--space', ' ', '--data', data, '--json']);
    expect(empty.code).toBe(1);
    expect(JSON.parse(empty.stdout)).toMatchObject({
      errors: [{ path: '--space', message: '` ` is not a space name' }],
    });
  });
});
