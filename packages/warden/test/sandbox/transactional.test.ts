// Transactional runs (E44): `warden exec` runs a command over a copy-on-write
// layer of its worktree, reads what it really deleted, created and changed,
// and decides that before anything lands. What the classifier cannot see — a
// script file, a command it cannot read whole — is decided on what it did. A
// deny discards the layer whole: nothing happened, and the answer names the
// real effect and its rule. Under CI the sandbox is required.

import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Ran } from '../helpers.js';
import { BIN, exportedAudit, runAsync } from '../helpers.js';
import { sandboxForTests, tempDir } from '../support/backends.js';

const { backend, missing } = sandboxForTests();

const POLICY = `version: 1
workspace: acme
rules:
  - { id: spawn, action: processSpawn, decision: allow }
  - { id: build-ok, action: fileDelete, decision: allow, when: { paths: ['build/**', 'src/**'] } }
  - { id: keep-secrets, action: fileDelete, decision: deny, when: { paths: ['src/keep/**'] } }
  - { id: tools-ok, action: workspaceMutation, decision: allow, when: { paths: ['.husky/**'] } }
`;

interface Entry {
  readonly kind: string;
  readonly status?: string;
  readonly outcome?: string;
  readonly decision?: { rule?: string; transactional?: boolean; facets?: { facet: string }[] };
  readonly request?: { actions?: string[]; args?: { paths?: string[]; count?: number } };
  readonly arguments?: {
    command?: string;
    effects?: { deleted: number | null; written: number; landed: boolean; decidedBy: string[] };
    sandbox?: { transactional: boolean; violations: string[]; hosts: string[] };
  };
}

let root: string;
let worktree: string;
let policy: string;
let data: string;

function exec(
  command: string,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<Ran> {
  return runAsync(
    process.execPath,
    [
      BIN,
      'exec',
      '--policy',
      policy,
      '--data',
      data,
      '--worktree',
      worktree,
      ...extra,
      '--',
      command,
    ],
    {
      env: {
        ...process.env,
        NO_COLOR: '1',
        WARDEN_URL: '',
        WARDEN_TOKEN: '',
        WARDEN_LOG_LEVEL: 'silent',
        ...env,
      },
    },
  );
}

/** The entries of the last run of `command`: its decisions and how it ended. */
function runOf(command: string): { calls: Entry[]; decisions: Entry[] } {
  const entries = exportedAudit<Entry & { callId: string }>(data);
  const ended = entries.filter(
    (e) => e.kind === 'call' && e.status !== 'Staged' && e.arguments?.command === command,
  );
  const last = ended.at(-1);
  return {
    calls: ended,
    decisions: entries.filter(
      (e) => e.kind === 'decision' && e.callId === (last as { callId?: string })?.callId,
    ),
  };
}

function write(rel: string, text: string): void {
  mkdirSync(join(worktree, rel, '..'), { recursive: true });
  writeFileSync(join(worktree, rel), text);
}

describe.skipIf(missing !== null)(`E44: transactional runs (${backend ?? 'no sandbox'})`, () => {
  beforeEach(() => {
    root = tempDir('warden-tx-');
    worktree = join(root, 'wt');
    mkdirSync(worktree);
    policy = join(root, 'policy.yaml');
    writeFileSync(policy, POLICY);
    data = join(root, 'data');
    write('src/main.ts', 'main\n');
    write('src/keep/deploy.key', 'secret\n');
    write('build/a.js', 'a\n');
    write('build/b/c.js', 'c\n');
  });

  it('a script that deletes what the policy denies changes nothing: the real effect and its rule are named, exit 3', async () => {
    write('clean.sh', 'rm -rf src/keep\necho done > done.txt\n');
    const ran = await exec('bash ./clean.sh');
    expect(ran.code, ran.stderr).toBe(3);
    expect(ran.stderr).toContain('nothing the command did was kept');
    expect(ran.stderr).toContain('src/keep');
    expect(ran.stderr).toContain('keep-secrets');
    expect(readFileSync(join(worktree, 'src/keep/deploy.key'), 'utf8')).toBe('secret\n');
    expect(existsSync(join(worktree, 'done.txt'))).toBe(false);
    const { calls, decisions } = runOf('bash ./clean.sh');
    expect(calls[0]?.status).toBe('Error');
    expect(calls[0]?.arguments?.effects).toMatchObject({ landed: false });
    // The call's own decision, then the decision on what it did: the same call.
    expect(decisions.map((d) => d.outcome)).toEqual(['allow', 'deny']);
    expect(decisions[1]?.request).toMatchObject({ actions: ['fileDelete'] });
    expect(decisions[1]?.request?.args?.paths).toContain('src/keep/deploy.key');
  });

  it('what an allowed command did lands whole: files, folders, links and modes, and the audit counts it', async () => {
    write('tool.sh', '#!/bin/sh\n');
    const command =
      'rm -rf build && mkdir -p out/deep && echo y > out/deep/y.txt && echo new > b.txt && ln -s b.txt link && chmod +x tool.sh && echo more >> src/main.ts';
    const ran = await exec(command);
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(worktree, 'build'))).toBe(false);
    expect(readFileSync(join(worktree, 'out/deep/y.txt'), 'utf8')).toBe('y\n');
    expect(readFileSync(join(worktree, 'b.txt'), 'utf8')).toBe('new\n');
    expect(readlinkSync(join(worktree, 'link'))).toBe('b.txt');
    expect(statSync(join(worktree, 'tool.sh')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(worktree, 'src/main.ts'), 'utf8')).toBe('main\nmore\n');
    const { calls, decisions } = runOf(command);
    expect(calls[0]).toMatchObject({ status: 'Ok' });
    expect(calls[0]?.arguments?.sandbox?.transactional).toBe(true);
    expect(calls[0]?.arguments?.effects).toMatchObject({ landed: true, deleted: 2 });
    expect(decisions.at(-1)?.request?.args?.paths).toEqual(
      expect.arrayContaining(['build', 'build/a.js', 'build/b/c.js']),
    );
  });

  it('a folder deleted and made anew loses what it held: the deletion is seen, decided and landed', async () => {
    const command = 'rm -rf src && mkdir src && echo fresh > src/new.ts';
    // `src/keep/**` is denied: the fresh folder cannot hide that its old files were deleted.
    const ran = await exec(command);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('keep-secrets');
    expect(existsSync(join(worktree, 'src/main.ts'))).toBe(true);
    expect(existsSync(join(worktree, 'src/new.ts'))).toBe(false);
    // Without the secret, the same command lands as the command saw it.
    const again = 'rm -rf src/keep && rm -rf src && mkdir src && echo fresh > src/new.ts';
    await exec('true');
    writeFileSync(
      policy,
      POLICY.replace(
        "  - { id: keep-secrets, action: fileDelete, decision: deny, when: { paths: ['src/keep/**'] } }\n",
        '',
      ),
    );
    const landed = await exec(again);
    expect(landed.code, landed.stderr).toBe(0);
    expect(existsSync(join(worktree, 'src/main.ts'))).toBe(false);
    expect(existsSync(join(worktree, 'src/keep'))).toBe(false);
    expect(readFileSync(join(worktree, 'src/new.ts'), 'utf8')).toBe('fresh\n');
  });

  it('a file replaced by a folder, and a folder by a file, land as the command left them', async () => {
    const command =
      'rm src/main.ts && mkdir src/main.ts && echo in > src/main.ts/x && rm -rf build/b && echo file > build/b';
    const ran = await exec(command);
    expect(ran.code, ran.stderr).toBe(0);
    expect(lstatSync(join(worktree, 'src/main.ts')).isDirectory()).toBe(true);
    expect(readFileSync(join(worktree, 'src/main.ts/x'), 'utf8')).toBe('in\n');
    expect(readFileSync(join(worktree, 'build/b'), 'utf8')).toBe('file\n');
  });

  it('a planted git hook is a workspace mutation that asks; standalone nobody answers, so nothing lands', async () => {
    mkdirSync(join(worktree, '.git', 'hooks'), { recursive: true });
    const command =
      'echo "curl evil" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && echo x > x.txt';
    const ran = await exec(command);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('.git/hooks/pre-commit');
    expect(ran.stderr).toContain('changes what later commands run');
    expect(existsSync(join(worktree, '.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(join(worktree, 'x.txt'))).toBe(false);
    // A rule that allows the path decides before the built-in default.
    const husky = 'mkdir -p .husky && echo "npm test" > .husky/pre-commit';
    expect((await exec(husky)).code).toBe(0);
    expect(existsSync(join(worktree, '.husky/pre-commit'))).toBe(true);
  });

  it('`git init` and identity settings land without asking; a setting that names a program asks', async () => {
    const init = 'git init -q && git config user.email coder@example.test';
    const ran = await exec(init);
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(worktree, '.git', 'hooks', 'pre-commit.sample'))).toBe(true);
    const knob = 'git config core.fsmonitor ./tools/fsmonitor';
    const asked = await exec(knob);
    expect(asked.code).toBe(3);
    expect(asked.stderr).toContain('`.git/config` changes what later commands run');
    expect(readFileSync(join(worktree, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
  });

  it('a command that cannot be read whole runs transactionally, without network, and is decided on what it did', async () => {
    const command = 'echo "$(echo made)" > made.txt';
    const ran = await exec(command);
    expect(ran.code, ran.stderr).toBe(0);
    expect(readFileSync(join(worktree, 'made.txt'), 'utf8')).toBe('made\n');
    const { decisions, calls } = runOf(command);
    expect(decisions[0]?.decision).toMatchObject({ transactional: true });
    expect(calls[0]?.arguments?.sandbox?.hosts).toEqual([]);
    // The same kind of command deleting a denied file is discarded.
    const hidden = 'x=$(echo src/keep); rm -rf "$x"';
    expect((await exec(hidden)).code).toBe(3);
    expect(existsSync(join(worktree, 'src/keep/deploy.key'))).toBe(true);
  });

  it('`--transactional off` writes as the command goes; a command allowed only transactionally then does not run', async () => {
    const plain = await exec('echo direct > direct.txt', ['--transactional', 'off']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(existsSync(join(worktree, 'direct.txt'))).toBe(true);
    expect(runOf('echo direct > direct.txt').calls[0]?.arguments?.sandbox?.transactional).toBe(
      false,
    );
    const unreadable = await exec('echo "$(date)" > d.txt', ['--transactional', 'off']);
    expect(unreadable.code).toBe(3);
    expect(existsSync(join(worktree, 'd.txt'))).toBe(false);
  });

  it('`--transactional required` on a host that cannot make a layer refuses to run', async () => {
    const bin = join(root, 'bin');
    mkdirSync(bin);
    for (const tool of ['bwrap', 'socat', 'rg', 'bash'])
      writeFileSync(join(bin, tool), `#!/bin/sh\nexec /usr/bin/${tool} "$@"\n`, { mode: 0o755 });
    const ran = await exec('echo x > never.txt', ['--transactional', 'required'], {
      PATH: bin,
    });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('must run transactionally');
    expect(existsSync(join(worktree, 'never.txt'))).toBe(false);
  });

  it("a read of a hidden credential folder is refused and recorded; Warden's data folder is hidden too", async () => {
    const home = join(root, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
    const command = `cat ${home}/.ssh/id_rsa; cat ${data}/warden.db | head -c 16`;
    const ran = await exec(command, [], { HOME: home });
    expect(ran.stdout).not.toContain('PRIVATE KEY');
    expect(ran.stdout).not.toContain('SQLite format');
    const { calls } = runOf(command);
    expect(calls[0]?.arguments?.sandbox?.violations.join('\n')).toContain('a read was refused');
  });
});
