// `warden templates list|show|apply` as an operator runs them: the real
// binary, a real data folder, and a served Warden over loopback for the
// server path and for reading back what was written.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/templates/index.js';
import type { Ran } from '../helpers.js';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import type { Served } from '../support/processes.js';
import {
  api,
  dataToken,
  dataWithPolicy as withPolicy,
  freePort,
  killAll,
  serve,
} from '../support/processes.js';
import { askPushPolicy } from '../support/ask-push-policy.js';

const POLICY = askPushPolicy();

type J = Record<string, unknown>;

const running: Served[] = [];
afterEach(() => killAll(running));

async function started(data: string): Promise<Served> {
  const server = await serve(['--data', data]);
  running.push(server);
  return server;
}

function dataWithPolicy(): string {
  return withPolicy(POLICY).data;
}

/** Exit 1, the problems one per line on standard error, each a plain `error:` line. */
function refusedWith(ran: Ran, ...parts: string[]): string[] {
  expect(ran.code, ran.stdout + ran.stderr).toBe(1);
  expect(ran.stdout).toBe('');
  const lines = ran.stderr.trimEnd().split('\n');
  for (const line of lines) expect(line).toMatch(/^error: /);
  expect(ran.stderr).not.toMatch(/\n\s+at |internal error/);
  for (const part of parts) expect(ran.stderr).toContain(part);
  return lines;
}

function errorsOf(ran: Ran): { path: string; message: string }[] {
  expect(ran.code, ran.stderr).toBe(1);
  return (JSON.parse(ran.stdout) as { errors: { path: string; message: string }[] }).errors;
}

describe('warden templates list and show (issue 4 deliverable 4)', () => {
  it('lists every shipped template with its title and parameters, without a server or a data folder', () => {
    const listed = warden(['templates', 'list'], { env: { WARDEN_URL: '', WARDEN_TOKEN: '' } });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toBe('');
    const lines = listed.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TITLE\s+PARAMETERS$/);
    for (const t of TEMPLATES) {
      const line = lines.find((l) => l.startsWith(`${t.name} `));
      expect(line, t.name).toContain(t.title);
    }
    expect(listed.stdout).toContain('worktrees (required; e.g. `/srv/agents/*`)');
    expect(listed.stdout).toContain('branches (optional;');
    expect(lines.find((l) => l.startsWith('no-package-installs '))).toMatch(/none$/);
  });

  it('lists them as JSON: name, title and each parameter (name, required, kind, example)', () => {
    const listed = warden(['templates', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const { templates } = JSON.parse(listed.stdout) as { templates: J[] };
    expect(templates).toEqual(
      TEMPLATES.map((t) => ({
        name: t.name,
        title: t.title,
        params: t.params.map((p) => ({
          name: p.name,
          required: p.required,
          kind: p.kind,
          example: p.example,
        })),
      })),
    );
  });

  it('shows one template: its description, its parameters and how to pass them', () => {
    const shown = warden(['templates', 'show', 'egress-allowlist']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^egress-allowlist: Lock down egress to an allowlist\n/);
    expect(shown.stdout).toContain('Allows network access only to the listed hosts');
    expect(shown.stdout).toContain('hosts  required, a list: repeat `--param` for each value');
    expect(shown.stdout).toContain("--param hosts=api.internal --param hosts='*.internal'");
    const none = warden(['templates', 'show', 'no-package-installs']);
    expect(none.stdout).toContain('It takes no parameters.');
  });

  it('shows one template as JSON, exactly as the API lists it', () => {
    const shown = warden(['templates', 'show', 'protect-main', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(TEMPLATES.find((t) => t.name === 'protect-main'));
  });

  it('refuses an unknown name with a did-you-mean, or names the templates (exit 1)', () => {
    refusedWith(
      warden(['templates', 'show', 'protect-mian']),
      'unknown template `protect-mian`: did you mean `protect-main`?',
    );
    const far = errorsOf(warden(['templates', 'show', 'zzz', '--json']));
    expect(far).toEqual([
      {
        path: '',
        message: expect.stringContaining('the templates are `never-push-without-asking`') as string,
      },
    ]);
  });
});

describe('warden templates apply, in the data folder (issue 4 deliverable 4)', () => {
  it('adds the rules as the next revision with origin `template`, attributed to the CLI user (G24)', async () => {
    const data = dataWithPolicy();
    const applied = warden([
      'templates',
      'apply',
      'protect-main',
      '--param',
      'branches=develop',
      '--param',
      'branches=release/**',
      '--data',
      data,
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(
      'applied: template `protect-main` made revision 2 of workspace `acme` (1 rule added)',
    );
    expect(applied.stdout).toContain(
      'tpl-protect-main-1  Across workspace `acme`, pushing to a git remote (`gitPush`) is denied when any ref matches `main`, `master`, `develop`, `release/**` (from a template)',
    );

    const viewer = dataToken(data, '--role', 'viewer', '--name', 'vic');
    const server = await started(data);
    const rules = (await api(server.url, viewer, 'GET', '/v1/rules')).body.rules as J[];
    expect(rules.map((r) => [r.id, r.origin])).toEqual([
      ['ask-push', 'user'],
      ['tpl-protect-main-1', 'template'],
    ]);
    expect(rules[1]).toMatchObject({
      action: 'gitPush',
      decision: 'deny',
      when: { refs: ['main', 'master', 'develop', 'release/**'] },
    });
    const revisions = await api(server.url, viewer, 'GET', '/v1/policy/revisions');
    expect(revisions.body).toMatchObject({
      revisions: [
        {
          revision: 2,
          author: expect.stringMatching(/^cli/) as string,
          message: 'template protect-main',
        },
        { revision: 1 },
      ],
    });
  });

  it('maps repeated `--param` to the list the template takes, and prints the same as JSON', async () => {
    const data = dataWithPolicy();
    const applied = warden([
      'templates',
      'apply',
      'egress-allowlist',
      '--param',
      'hosts=api.internal',
      '--param',
      'hosts=*.internal',
      '--workspace',
      'acme',
      '--message',
      'egress locked down',
      '--data',
      data,
      '--json',
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    const out = JSON.parse(applied.stdout) as J;
    expect(out).toMatchObject({
      applied: true,
      template: 'egress-allowlist',
      workspace: 'acme',
      revision: 2,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
    });
    const added = out.added as J[];
    expect(added.map((r) => [r.id, r.decision, r.origin])).toEqual([
      ['tpl-egress-allowlist-1', 'allow', 'template'],
      ['tpl-egress-allowlist-2', 'deny', 'template'],
    ]);
    expect(added[0]?.when).toEqual({ hosts: ['api.internal', '*.internal'] });
    expect(added[0]?.sentence).toMatch(/^Across workspace `acme`, .* \(from a template\)/);

    // Applying again adds the rules again with fresh ids, as a third revision.
    const again = warden(['templates', 'apply', 'no-package-installs', '--data', data, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ revision: 3 });

    const admin = dataToken(data, '--role', 'admin', '--name', 'alice');
    const server = await started(data);
    const revisions = await api(server.url, admin, 'GET', '/v1/policy/revisions');
    expect(revisions.body).toMatchObject({
      revisions: [
        { revision: 3, message: 'template no-package-installs' },
        { revision: 2, message: 'egress locked down' },
        { revision: 1 },
      ],
    });
  });
});

describe('warden templates apply, on a server (issue 4 deliverable 4, G24)', () => {
  it('applies with an admin token, attributed to the token holder (G24)', async () => {
    const data = dataWithPolicy();
    const admin = dataToken(data, '--role', 'admin', '--name', 'alice');
    const server = await started(data);
    const applied = warden([
      'templates',
      'apply',
      'never-delete-outside-worktree',
      '--param',
      'worktrees=/srv/agents/*',
      '--message',
      'keep deletions in the worktree',
      '--server',
      server.url,
      '--token',
      admin,
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(
      'applied: template `never-delete-outside-worktree` made revision 2 of workspace `acme`',
    );
    expect(applied.stdout).toContain('tpl-never-delete-outside-worktree-1  ');

    // WARDEN_URL and WARDEN_TOKEN name the server and the token just as well.
    const viaEnv = warden(['templates', 'apply', 'no-package-installs', '--json'], {
      env: { WARDEN_URL: server.url, WARDEN_TOKEN: admin },
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({
      applied: true,
      workspace: 'acme',
      revision: 3,
      added: [{ id: 'tpl-no-package-installs-1', origin: 'template' }],
    });

    const rules = (await api(server.url, admin, 'GET', '/v1/rules')).body.rules as J[];
    expect(rules.filter((r) => r.origin === 'template').map((r) => r.id)).toEqual([
      'tpl-never-delete-outside-worktree-1',
      'tpl-no-package-installs-1',
    ]);
    const revisions = await api(server.url, admin, 'GET', '/v1/policy/revisions');
    expect(revisions.body).toMatchObject({
      revisions: [
        { revision: 3, author: 'alice', message: 'template no-package-installs' },
        { revision: 2, author: 'alice', message: 'keep deletions in the worktree' },
        { revision: 1 },
      ],
    });
  });

  it('is refused with a viewer token (HTTP 403), and writes nothing', async () => {
    const data = dataWithPolicy();
    const viewer = dataToken(data, '--role', 'viewer', '--name', 'vic');
    const server = await started(data);
    const refused = warden([
      'templates',
      'apply',
      'protect-main',
      '--server',
      server.url,
      '--token',
      viewer,
    ]);
    const lines = refusedWith(refused, 'a `viewer` token may not', 'HTTP 403');
    expect(lines).toHaveLength(1);
    const revisions = await api(server.url, viewer, 'GET', '/v1/policy/revisions');
    expect((revisions.body.revisions as J[]).map((r) => r.revision)).toEqual([1]);
  });

  it('says when the workspace has no policy on the server (HTTP 404)', async () => {
    const data = dataWithPolicy();
    const admin = dataToken(data, '--role', 'admin', '--name', 'alice');
    const server = await started(data);
    refusedWith(
      warden([
        'templates',
        'apply',
        'protect-main',
        '--workspace',
        'other',
        '--server',
        server.url,
        '--token',
        admin,
      ]),
      'no policy is stored for workspace `other` (HTTP 404)',
    );
  });

  it('says when no server answers, or when no token is given', async () => {
    const port = await freePort();
    refusedWith(
      warden([
        'templates',
        'apply',
        'protect-main',
        '--server',
        `http://127.0.0.1:${port}`,
        '--token',
        'wdn_x',
      ]),
      'nothing listens there',
    );
    refusedWith(
      warden(['templates', 'apply', 'protect-main', '--server', `http://127.0.0.1:${port}`], {
        env: { WARDEN_TOKEN: '' },
      }),
      '--token: give a token',
    );
  });
});

describe('warden templates apply refuses bad input whole, one line per problem (issue 4 deliverable 4)', () => {
  it('an unknown template, with a did-you-mean', () => {
    const data = dataWithPolicy();
    refusedWith(
      warden(['templates', 'apply', 'egress-allowlst', '--data', data]),
      'unknown template `egress-allowlst`: did you mean `egress-allowlist`?',
    );
  });

  it('a missing required parameter, an unknown one, a bad value and a malformed pair, all at once', () => {
    const data = dataWithPolicy();
    const missing = refusedWith(
      warden(['templates', 'apply', 'egress-allowlist', '--data', data]),
      'error: --param hosts: missing parameter `hosts`',
    );
    expect(missing).toHaveLength(1);
    const lines = refusedWith(
      warden([
        'templates',
        'apply',
        'protect-main',
        '--param',
        'branches=!main',
        '--param',
        'colour=red',
        '--param',
        'branches',
        '--data',
        data,
      ]),
      'error: --param: `branches` is not `key=value`: e.g. `--param branches=develop`',
      'error: --param colour: unknown parameter `colour`: template `protect-main` takes `branches`',
      'error: --param branches: ',
    );
    expect(lines).toHaveLength(3);
    const json = errorsOf(
      warden([
        'templates',
        'apply',
        'egress-allowlist',
        '--param',
        'hosts=*',
        '--data',
        data,
        '--json',
      ]),
    );
    expect(json).toEqual([{ path: '--param hosts', message: expect.any(String) as string }]);
    const none = refusedWith(
      warden(['templates', 'apply', 'no-package-installs', '--param', 'x=1', '--data', data]),
      'template `no-package-installs` takes no parameters',
    );
    expect(none).toHaveLength(1);
  });

  it('no policy yet: an empty data folder, a workspace without one; nothing is created', async () => {
    const empty = tempDir();
    refusedWith(
      warden(['templates', 'apply', 'protect-main', '--data', empty]),
      'no policy yet',
      'warden policy apply FILE',
    );
    expect(existsSync(join(empty, 'warden.db'))).toBe(false);
    const data = dataWithPolicy();
    refusedWith(
      warden(['templates', 'apply', 'protect-main', '--workspace', 'other', '--data', data]),
      'error: --workspace: no policy is stored for workspace `other`',
    );
    // Nothing was written by any refusal above.
    const viewer = dataToken(data, '--role', 'viewer', '--name', 'vic');
    const server = await started(data);
    const revisions = await api(server.url, viewer, 'GET', '/v1/policy/revisions');
    expect((revisions.body.revisions as J[]).map((r) => r.revision)).toEqual([1]);
  });
});
