// `warden hook install <runtime>` for Claude Code, Codex and Gemini CLI, and
// what `warden doctor` then says about the installed hooks: the entries go in
// for the decision and the completion event, the rest of each settings file
// stays, an earlier entry is replaced, a file that cannot be read is left
// untouched, and each runtime waits longer than the hook. For Codex the
// installer also writes Codex's trust for its entries, and the real Codex CLI
// (no trust bypass) then calls the installed hook; the real Gemini CLI calls
// the hook installed in its user settings. Under CI both CLIs are required;
// elsewhere a missing CLI skips those tests, saying why.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import { codexHookHash, codexTrustKey } from '../../src/cli/hook-install/codex.js';
import { BIN, exportedAudit, warden } from '../helpers.js';
import { requireCli } from '../support/agent-cli.js';
import { tempDir } from '../support/backends.js';
import { codexScratch, describeCodexRun, locateCodex, runCodex } from '../support/codex-cli.js';
import { describeRun, locateGemini, runGemini } from '../support/gemini-cli.js';
import type { Served } from '../support/processes.js';
import { agentToken, serve } from '../support/processes.js';
import { hookPolicy } from '../support/policies.js';

const codex = locateCodex();
const noCodex = requireCli(codex, 'Codex CLI');
const gemini = locateGemini();
const noGemini = requireCli(gemini, 'Gemini CLI');

const DENY_MAIN =
  'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace';

let policyFile: string;

beforeAll(() => {
  policyFile = join(tempDir('warden-hook-install-'), 'policy.yaml');
  writeFileSync(policyFile, hookPolicy());
});

/** `warden hook install <args>` with HOME (and CODEX_HOME) set to scratch folders. */
function install(args: readonly string[], env: Record<string, string>) {
  return warden(['hook', 'install', ...args], { env });
}

interface Group {
  matcher?: string;
  hooks: { type: string; command: string; timeout?: number | bigint; name?: string }[];
}

/** A settings file or config document as the assertions read it (what a test reads is there). */
interface Settings {
  model: string;
  general: unknown;
  model_providers: Record<string, { base_url: string }>;
  projects: Record<string, unknown>;
  security: {
    folderTrust: unknown;
    environmentVariableRedaction: { enabled?: boolean; allowed: string[] };
  };
  hooks: Record<
    'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure' | 'BeforeTool' | 'AfterTool',
    Group[]
  > & { state: Record<string, { trusted_hash?: string }> };
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Settings;
const readToml = (file: string) => parse(readFileSync(file, 'utf8')) as unknown as Settings;

const wardens = (groups: Group[] | undefined) =>
  (groups ?? []).filter((g) =>
    g.hooks.some((h) =>
      // As installed: the resident runner's client, handed the Node that runs Warden.
      /\/bin\/warden-hook \S+ (codex|gemini|claude-code)\b/.test(h.command),
    ),
  );

describe('warden hook install claude-code: the decision and the completions', () => {
  it('writes `PreToolUse`, `PostToolUse` and `PostToolUseFailure` for every tool, passes --timeout on and waits 5 s longer', () => {
    const project = tempDir();
    mkdirSync(join(project, '.claude'));
    const file = join(project, '.claude', 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        model: 'opus',
        hooks: {
          PreToolUse: [
            { matcher: '*', hooks: [{ type: 'command', command: 'my-hook claude-code' }] },
          ],
          PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'fmt' }] }],
        },
      }),
    );
    for (let i = 0; i < 2; i++) {
      const ran = install(
        ['claude-code', '--project', project, '--policy', policyFile, '--timeout', '20', '--json'],
        {},
      );
      expect(ran.code, ran.stderr).toBe(0);
      expect(JSON.parse(ran.stdout)).toMatchObject({ replaced: i === 1, timeout: 25 });
    }
    const settings = readJson(file);
    expect(settings.model).toBe('opus');
    for (const event of ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const) {
      const ours = wardens(settings.hooks[event]);
      expect(ours, event).toHaveLength(1);
      expect(ours[0]).toMatchObject({ matcher: '*', hooks: [{ type: 'command', timeout: 25 }] });
      expect(ours[0]?.hooks[0]?.command).toContain(' claude-code --policy ');
      expect(ours[0]?.hooks[0]?.command).toContain(' --timeout 20');
    }
    // A hook that is not Warden's stays, whatever it is called; the others keep their places.
    expect(settings.hooks.PreToolUse[0]?.hooks[0]?.command).toBe('my-hook claude-code');
    expect(settings.hooks.PostToolUse[0]).toEqual({
      matcher: 'Write',
      hooks: [{ type: 'command', command: 'fmt' }],
    });
  });

  it('refuses a --timeout that is not a number of seconds, writing nothing', () => {
    const project = tempDir();
    const ran = install(['claude-code', '--project', project, '--timeout', 'soon'], {});
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('`--timeout soon` is not a number of seconds');
    expect(existsSync(join(project, '.claude'))).toBe(false);
  });

  it('refuses a --policy that does not load, with its problems, for every runtime, writing nothing', () => {
    const broken = join(tempDir(), 'policy.yaml');
    writeFileSync(
      broken,
      'version: 1\nworkspace: acme\nrules:\n  - { id: x, action: gitPushh, decision: allow }\n',
    );
    for (const runtime of ['claude-code', 'codex', 'gemini']) {
      const project = tempDir();
      const home = tempDir();
      const ran = install([runtime, '--project', project, '--policy', broken], {
        HOME: home,
        CODEX_HOME: join(home, '.codex'),
      });
      expect(ran.code, runtime).toBe(1);
      expect(ran.stderr).toContain('does not load, so the hook would deny every call');
      expect(ran.stderr).toContain('rules[0].action: unknown action class `gitPushh`');
      for (const folder of ['.claude', '.codex', '.gemini'])
        expect(existsSync(join(project, folder)), `${runtime} ${folder}`).toBe(false);
    }
  });
});

describe('warden hook install codex', () => {
  /** A user Codex config with other tables, a float and a hook of its own. */
  const USER_CONFIG = `# the user's own
model = "gpt-5.5"
model_reasoning_summary_temperature = 1.0

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:1/v1"

[projects."/somewhere"]
trust_level = "trusted"

[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "lint-bash"

[hooks.state."/elsewhere/config.toml:pre_tool_use:0:0"]
trusted_hash = "sha256:0000"
`;

  function codexHome(config?: string) {
    const home = tempDir();
    const codexHomeDir = join(home, 'codex-home');
    mkdirSync(codexHomeDir);
    if (config !== undefined) writeFileSync(join(codexHomeDir, 'config.toml'), config);
    return { home, codexHome: codexHomeDir, env: { HOME: home, CODEX_HOME: codexHomeDir } };
  }

  it("--user writes both events into $CODEX_HOME/config.toml with Codex's trust for them, keeps the rest and replaces itself in place", () => {
    const { codexHome: dir, env } = codexHome(USER_CONFIG);
    const file = join(dir, 'config.toml');
    for (let i = 0; i < 2; i++) {
      const ran = install(
        ['codex', '--user', '--server', 'http://127.0.0.1:8787', '--timeout', '30', '--json'],
        { ...env, WARDEN_TOKEN: 'wdn_secret' },
      );
      expect(ran.code, ran.stderr).toBe(0);
      expect(JSON.parse(ran.stdout)).toMatchObject({
        runtime: 'codex',
        file,
        files: [file],
        timeout: 35,
        replaced: i === 1,
        todo: [],
        notes: [
          ...(i === 0
            ? [
                `${file} is rewritten from its data, without its comments: the file as it was is in ${file}.before-warden`,
              ]
            : []),
          // Never silent: under Codex's own sandbox Warden's cannot start.
          expect.stringContaining("under Codex's own sandbox"),
        ],
      });
    }
    const strict = install(
      ['codex', '--user', '--server', 'http://127.0.0.1:8787', '--sandbox', 'required', '--json'],
      env,
    );
    expect(strict.code, strict.stderr).toBe(0);
    expect((JSON.parse(strict.stdout) as { notes: string[] }).notes).toEqual([]);
    install(
      ['codex', '--user', '--server', 'http://127.0.0.1:8787', '--timeout', '30', '--json'],
      env,
    );
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('wdn_');
    // Its comments cannot be kept: the file as it was is kept beside it.
    expect(readFileSync(`${file}.before-warden`, 'utf8')).toBe(USER_CONFIG);
    const doc = parse(text) as unknown as Settings;
    expect(doc.model).toBe('gpt-5.5');
    expect(text).toContain('model_reasoning_summary_temperature = 1.0');
    expect(doc.model_providers.fake?.base_url).toBe('http://127.0.0.1:1/v1');
    expect(doc.projects['/somewhere']).toEqual({ trust_level: 'trusted' });
    expect(doc.hooks.state['/elsewhere/config.toml:pre_tool_use:0:0']).toEqual({
      trusted_hash: 'sha256:0000',
    });
    // The user's own hook stays first; Warden's is the one after it, in each event.
    expect(doc.hooks.PreToolUse[0]).toEqual({
      matcher: '^Bash$',
      hooks: [{ type: 'command', command: 'lint-bash' }],
    });
    const places = [
      ['PreToolUse', 1],
      ['PostToolUse', 0],
    ] as const;
    for (const [event, place] of places) {
      const groups = doc.hooks[event] as Group[];
      expect(wardens(groups), event).toHaveLength(1);
      const group = groups[place] as Group;
      const entry = group.hooks[0] as Group['hooks'][number];
      expect(group.matcher).toBeUndefined();
      expect(entry).toMatchObject({ type: 'command', timeout: 35 });
      expect(entry.command).toContain(' codex --server http://127.0.0.1:8787 --timeout 30');
      expect(doc.hooks.state[codexTrustKey(file, event, place, 0)]).toEqual({
        trusted_hash: codexHookHash(event, undefined, entry),
      });
    }
  });

  it("--project writes the entries into the project's .codex/config.toml and their trust into the user's, and says the project must be trusted", () => {
    const { codexHome: dir, env } = codexHome();
    const project = tempDir();
    const ran = install(['codex', '--project', project, '--policy', policyFile], env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('to do: Codex reads');
    expect(ran.stdout).toContain(`trust ${project} when Codex asks`);
    const projectDoc = readToml(join(project, '.codex', 'config.toml'));
    expect(projectDoc.hooks.state).toBeUndefined();
    const userDoc = readToml(join(dir, 'config.toml'));
    const key = `${realpathSync(project)}/.codex/config.toml:pre_tool_use:0:0`;
    const entry = projectDoc.hooks.PreToolUse[0]?.hooks[0] ?? {};
    expect(userDoc.hooks.state[key]?.trusted_hash).toBe(
      codexHookHash('PreToolUse', undefined, entry),
    );
    expect(userDoc.hooks.PreToolUse).toBeUndefined();
  });

  it('refuses a config.toml that is not TOML, writing nothing to either file', () => {
    const { codexHome: dir, env } = codexHome('model = "gpt-5.5"\n');
    const project = tempDir();
    mkdirSync(join(project, '.codex'));
    writeFileSync(join(project, '.codex', 'config.toml'), '[hooks\nbroken');
    const ran = install(['codex', '--project', project, '--policy', policyFile], env);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('is not TOML');
    expect(ran.stderr).toContain('nothing was written');
    expect(readFileSync(join(project, '.codex', 'config.toml'), 'utf8')).toBe('[hooks\nbroken');
    expect(readFileSync(join(dir, 'config.toml'), 'utf8')).toBe('model = "gpt-5.5"\n');
    // A broken user config stops a project install too.
    const other = codexHome('model = \n');
    const again = install(['codex', '--project', tempDir(), '--policy', policyFile], other.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not TOML');
  });
});

describe('warden hook install gemini', () => {
  it('writes `BeforeTool` and `AfterTool` for every tool with the timeout in milliseconds, and lets WARDEN_URL and WARDEN_TOKEN through the redaction once', () => {
    const home = tempDir();
    mkdirSync(join(home, '.gemini'));
    const file = join(home, '.gemini', 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        general: { vimMode: true },
        security: {
          folderTrust: { enabled: true },
          environmentVariableRedaction: { enabled: true, allowed: ['MY_VAR', 'warden_url'] },
        },
      }),
    );
    for (const name of ['gemini', 'gemini-cli']) {
      const ran = install(
        [name, '--user', '--server', 'http://127.0.0.1:8787', '--timeout', '10', '--json'],
        { HOME: home, WARDEN_TOKEN: 'wdn_secret' },
      );
      expect(ran.code, ran.stderr).toBe(0);
      expect(JSON.parse(ran.stdout)).toMatchObject({ file, timeout: 15_000, timeoutUnit: 'ms' });
    }
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('wdn_');
    const settings = JSON.parse(text) as Settings;
    expect(settings.general).toEqual({ vimMode: true });
    expect(settings.security.folderTrust).toEqual({ enabled: true });
    expect(settings.security.environmentVariableRedaction).toEqual({
      enabled: true,
      allowed: ['MY_VAR', 'warden_url', 'WARDEN_TOKEN'],
    });
    for (const event of ['BeforeTool', 'AfterTool'] as const) {
      const ours = wardens(settings.hooks[event]);
      expect(ours, event).toHaveLength(1);
      const entry = ours[0]?.hooks[0];
      expect(ours[0]?.matcher).toBe('.*');
      // Gemini CLI waits longer than the hook answers: --timeout 10 s → at least 11 000 ms.
      expect(Number(entry?.timeout)).toBeGreaterThanOrEqual(10 * 1000 + 1000);
      expect(entry?.command).toContain(' gemini --server http://127.0.0.1:8787 --timeout 10');
    }
  });

  it('--project writes .gemini/settings.json; standalone needs no variables let through; a file that is not JSON is left as it is', () => {
    const project = tempDir();
    const ran = install(['gemini', '--project', project, '--policy', policyFile], {
      HOME: tempDir(),
    });
    expect(ran.code, ran.stderr).toBe(0);
    const settings = readJson(join(project, '.gemini', 'settings.json'));
    expect(wardens(settings.hooks.BeforeTool)).toHaveLength(1);
    expect(settings.hooks.BeforeTool[0]?.hooks[0]?.timeout).toBe(60_000);
    expect(settings.security).toBeUndefined();
    writeFileSync(join(project, '.gemini', 'settings.json'), '{ nope');
    const bad = install(['gemini', '--project', project], { HOME: tempDir() });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not JSON');
    expect(readFileSync(join(project, '.gemini', 'settings.json'), 'utf8')).toBe('{ nope');
  });
});

describe('warden doctor: the installed hooks', () => {
  interface Status {
    runtime: string;
    scope: string;
    installed: boolean;
    events: string[];
    called: boolean;
    problems: string[];
    trusted?: boolean;
    envAllowed?: boolean;
    paths: { path: string; exists: boolean }[];
  }
  const doctor = (cwd: string, env: Record<string, string>, json = true) => {
    const ran = spawnSync(
      process.execPath,
      [BIN, 'doctor', '--no-probe', ...(json ? ['--json'] : [])],
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8' },
    );
    expect(ran.status, ran.stderr).toBe(0);
    return ran.stdout;
  };
  const statuses = (cwd: string, env: Record<string, string>) =>
    (JSON.parse(doctor(cwd, env)) as { hooks: Status[] }).hooks;
  const find = (hooks: Status[], runtime: string, scope: string) =>
    hooks.find((h) => h.runtime === runtime && h.scope === scope);

  it('shows each runtime in the project and user settings: the events, whether it is called, Codex trust and Gemini variables', () => {
    const home = tempDir();
    const project = tempDir();
    const env = { HOME: home, CODEX_HOME: join(home, '.codex') };
    const before = statuses(project, env);
    expect(before).toHaveLength(6);
    expect(before.every((h) => !h.installed && !h.called)).toBe(true);

    expect(install(['claude-code', '--project', project, '--policy', policyFile], env).code).toBe(
      0,
    );
    expect(install(['codex', '--user', '--policy', policyFile], env).code).toBe(0);
    expect(install(['gemini', '--user', '--server', 'http://127.0.0.1:8787'], env).code).toBe(0);
    const after = statuses(project, env);
    expect(find(after, 'claude-code', 'project')).toMatchObject({
      installed: true,
      events: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
      called: true,
      problems: [],
    });
    expect(find(after, 'claude-code', 'project')?.paths.every((p) => p.exists)).toBe(true);
    expect(find(after, 'codex', 'user')).toMatchObject({
      installed: true,
      events: ['PreToolUse', 'PostToolUse'],
      called: true,
      trusted: true,
    });
    expect(find(after, 'gemini', 'user')).toMatchObject({
      installed: true,
      events: ['BeforeTool', 'AfterTool'],
      called: true,
      envAllowed: true,
    });
    expect(find(after, 'codex', 'project')).toMatchObject({ installed: false });
    const human = doctor(project, env, false);
    expect(human).toContain(
      `hook, codex (user, ${join(home, '.codex', 'config.toml')}): PreToolUse + PostToolUse: called, trusted`,
    );

    // An entry edited by hand is no longer the one trusted; variables taken out are reported.
    const codexFile = join(home, '.codex', 'config.toml');
    writeFileSync(
      codexFile,
      readFileSync(codexFile, 'utf8').replace(/timeout = 60\n/, 'timeout = 61\n'),
    );
    const geminiFile = join(home, '.gemini', 'settings.json');
    const settings = readJson(geminiFile);
    settings.security.environmentVariableRedaction.allowed = [];
    writeFileSync(geminiFile, JSON.stringify(settings));
    const edited = statuses(project, env);
    expect(find(edited, 'codex', 'user')).toMatchObject({ called: false, trusted: false });
    expect(find(edited, 'codex', 'user')?.problems.join('\n')).toContain(
      'the PreToolUse entry is not trusted: Codex skips it without a word',
    );
    expect(find(edited, 'gemini', 'user')).toMatchObject({ envAllowed: false });
    expect(find(edited, 'gemini', 'user')?.problems.join('\n')).toContain(
      'WARDEN_URL and WARDEN_TOKEN not in `security.environmentVariableRedaction.allowed`',
    );
    expect(doctor(project, env, false)).toContain('NOT called, not trusted');
  });
});

describe('warden hook install: the worktree the installed hook binds every call to', () => {
  /** The `--worktree` the installed command line ends with, if any. */
  const boundIn = (command: string) => / --worktree (\S+)$/.exec(command)?.[1] ?? null;

  it('E10: `--project DIR` writes `--worktree` with the project’s real path for every runtime, and the hook judges calls against it wherever it is started and whatever folder a call names (G14c)', () => {
    const askOutside = join(tempDir(), 'policy.yaml');
    writeFileSync(
      askOutside,
      hookPolicy(`  - id: ask-outside
    action: fileWriteOutsideWorktree
    decision: prompt
`),
    );
    for (const runtime of ['claude-code', 'codex', 'gemini'] as const) {
      const home = tempDir();
      const project = realpathSync(tempDir());
      const ran = install(
        [runtime, '--project', project, '--policy', askOutside, '--data', tempDir(), '--json'],
        { HOME: home, CODEX_HOME: home },
      );
      expect(ran.code, ran.stderr).toBe(0);
      const { command, worktree } = JSON.parse(ran.stdout) as { command: string; worktree: string };
      expect(worktree, runtime).toBe(project);
      expect(boundIn(command), runtime).toBe(project);
      if (runtime !== 'claude-code') continue;
      // Started anywhere, with Claude Code naming another project, the installed hook judges by its own.
      const elsewhere = realpathSync(tempDir());
      const write = (cwd: string) =>
        spawnSync('sh', ['-c', command], {
          input: JSON.stringify({
            hook_event_name: 'PreToolUse',
            cwd,
            tool_name: 'Write',
            tool_input: { file_path: 'notes.txt', content: 'x' },
            tool_use_id: 'toolu_install',
          }),
          encoding: 'utf8',
          cwd: elsewhere,
          env: {
            ...process.env,
            CLAUDE_PROJECT_DIR: elsewhere,
            WARDEN_URL: '',
            WARDEN_TOKEN: '',
            WARDEN_LOG_LEVEL: 'silent',
          },
        }).stdout;
      expect(JSON.parse(write(project))).toMatchObject({
        hookSpecificOutput: {
          permissionDecision: 'allow',
          permissionDecisionReason: 'Warden: `Write` writes inside the worktree (not gated)',
        },
      });
      expect(JSON.parse(write(elsewhere))).toMatchObject({
        hookSpecificOutput: {
          permissionDecision: 'deny',
          permissionDecisionReason: expect.stringContaining(
            'needs approval: `fileWriteOutsideWorktree` by rule `ask-outside`',
          ) as unknown as string,
        },
      });
    }
  });

  it('E10: a `--user` hook binds no worktree of its own unless given one; `--worktree` that is no folder is refused, writing nothing', () => {
    const home = tempDir();
    const user = install(['claude-code', '--user', '--policy', policyFile, '--json'], {
      HOME: home,
    });
    expect(user.code, user.stderr).toBe(0);
    const plain = JSON.parse(user.stdout) as { command: string; worktree: string | null };
    expect(plain.worktree).toBeNull();
    expect(plain.command).not.toContain('--worktree');
    const dir = realpathSync(tempDir());
    const given = install(
      ['gemini', '--user', '--worktree', dir, '--policy', policyFile, '--json'],
      { HOME: home },
    );
    expect(given.code, given.stderr).toBe(0);
    expect(boundIn((JSON.parse(given.stdout) as { command: string }).command)).toBe(dir);
    const other = tempDir();
    const missing = join(other, 'none');
    const refused = install(
      ['codex', '--project', other, '--worktree', missing, '--policy', policyFile],
      { HOME: home, CODEX_HOME: home },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`\`--worktree ${missing}\` is not a folder`);
    expect(existsSync(join(other, '.codex'))).toBe(false);
  });
});

describe.skipIf(noCodex !== null)(
  `the real Codex ${'version' in codex ? codex.version : ''} with the installed hook`,
  { timeout: 120_000 },
  () => {
    const push = 'git push origin main';
    const calls = [{ name: 'exec_command', arguments: { cmd: push } }];

    it('calls both entries `warden hook install codex --user` wrote, without `--dangerously-bypass-hook-trust`: the decision and the completion; and neither once their trust no longer matches', async () => {
      if ('missing' in codex) throw new Error(codex.missing);
      const data = tempDir();
      const installIn = (codexHome: string, home: string) => {
        const ran = install(['codex', '--user', '--policy', policyFile, '--data', data], {
          HOME: home,
          CODEX_HOME: codexHome,
        });
        expect(ran.code, ran.stderr).toBe(0);
      };
      const twoCalls = [...calls, { name: 'exec_command', arguments: { cmd: 'echo hello' } }];
      const run = await runCodex({
        bin: codex.bin,
        calls: twoCalls,
        hook: ['true'],
        events: [],
        trustBypass: false,
        cwd: codexScratch('warden-codex-install-'),
        beforeRun: ({ codexHome, home }) => installIn(codexHome, home),
      });
      expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toBe(
        `Command blocked by PreToolUse hook: ${DENY_MAIN}. Command: ${push}`,
      );
      type Entry = { kind: string; source?: string; outcome?: string; status?: string };
      const audit = exportedAudit<Entry>(data);
      expect(
        audit.filter((e) => e.kind === 'decision').map((e) => [e.source, e.outcome]),
        JSON.stringify(audit),
      ).toEqual([
        ['codex', 'deny'],
        ['codex', 'allow'],
      ]);
      // The allowed command's completion came through the `PostToolUse` entry.
      expect(audit.filter((e) => e.kind === 'call').map((e) => e.status)).toContain('Ok');

      // The same install with its trust taken away: Codex runs the commands, never asking the hook.
      const untrusted = await runCodex({
        bin: codex.bin,
        calls: twoCalls,
        hook: ['true'],
        events: [],
        trustBypass: false,
        cwd: codexScratch('warden-codex-install-'),
        beforeRun: ({ codexHome, home }) => {
          installIn(codexHome, home);
          const file = join(codexHome, 'config.toml');
          writeFileSync(
            file,
            readFileSync(file, 'utf8').replaceAll(
              /trusted_hash = "sha256:[0-9a-f]+"/g,
              'trusted_hash = "sha256:00"',
            ),
          );
        },
      });
      expect(untrusted.toolOutputs[0]?.text, describeCodexRun(untrusted)).not.toContain(
        'blocked by PreToolUse hook',
      );
      expect(exportedAudit<Entry>(data)).toHaveLength(audit.length);
    });

    it('calls the hook `warden hook install codex --project` wrote once Codex trusts the project, and not before', async () => {
      if ('missing' in codex) throw new Error(codex.missing);
      const outputs: (string | undefined)[] = [];
      for (const trustProject of [false, true]) {
        const data = tempDir();
        const cwd = codexScratch('warden-codex-install-');
        const run = await runCodex({
          bin: codex.bin,
          calls,
          hook: ['true'],
          events: [],
          trustBypass: false,
          cwd,
          beforeRun: ({ codexHome, home }) => {
            const ran = install(
              ['codex', '--project', cwd, '--policy', policyFile, '--data', data],
              { HOME: home, CODEX_HOME: codexHome },
            );
            expect(ran.code, ran.stderr).toBe(0);
            expect(ran.stdout).toContain('only in a trusted project');
            const file = join(codexHome, 'config.toml');
            if (trustProject)
              writeFileSync(
                file,
                `${readFileSync(file, 'utf8')}\n[projects.${JSON.stringify(cwd)}]\ntrust_level = "trusted"\n`,
              );
          },
        });
        if (!trustProject)
          expect(run.stderr, describeCodexRun(run)).toContain(
            'Untrusted project-local configuration is disabled',
          );
        outputs.push(run.toolOutputs[0]?.text);
      }
      expect(outputs[0]).not.toContain('blocked by PreToolUse hook');
      expect(outputs[1]).toBe(`Command blocked by PreToolUse hook: ${DENY_MAIN}. Command: ${push}`);
    });
  },
);

describe.skipIf(noGemini !== null)(
  `the real Gemini CLI ${'version' in gemini ? gemini.version : ''} with the installed hook`,
  { timeout: 150_000 },
  () => {
    it('calls the hook `warden hook install gemini --user` wrote: a push to main is denied with Warden’s reason', async () => {
      if ('missing' in gemini) throw new Error(gemini.missing);
      const data = tempDir();
      const cwd = tempDir();
      const run = await runGemini({
        bin: gemini.bin,
        calls: [{ name: 'run_shell_command', args: { command: 'git push origin main' } }],
        hook: ['true'],
        events: [],
        cwd,
        beforeRun: ({ home }) => {
          const ran = install(['gemini', '--user', '--policy', policyFile, '--data', data], {
            HOME: home,
          });
          expect(ran.code, ran.stderr).toBe(0);
        },
      });
      expect(run.functionResponses[0]?.response, describeRun(run)).toMatchObject({
        error: `Tool execution blocked: ${DENY_MAIN}`,
      });
      const decisions = exportedAudit<{ kind: string; source?: string; outcome?: string }>(
        data,
      ).filter((e) => e.kind === 'decision');
      expect(decisions.map((e) => e.outcome)).toEqual(['deny']);
    });

    describe('connected, with Gemini CLI’s environment redaction on', () => {
      let served: Served;
      let agent: string;
      beforeAll(async () => {
        const data = tempDir();
        const applied = warden(['policy', 'apply', policyFile, '--data', data]);
        expect(applied.code, applied.stderr).toBe(0);
        agent = agentToken(data, 'gemini-cli', 'acme', 'gemini');
        served = await serve(['--data', data]);
        return async () => {
          await served.stop('SIGKILL');
        };
      }, 60_000);

      it('the WARDEN_URL and WARDEN_TOKEN the install lets through reach the hook, which the server answers; without them the hook can only deny', async () => {
        if ('missing' in gemini) throw new Error(gemini.missing);
        const reasons: unknown[] = [];
        for (const letThrough of [true, false]) {
          const run = await runGemini({
            bin: gemini.bin,
            calls: [{ name: 'run_shell_command', args: { command: 'git push origin main' } }],
            hook: ['true'],
            events: [],
            cwd: tempDir(),
            env: { WARDEN_URL: served.url, WARDEN_TOKEN: agent },
            settings: {
              security: {
                auth: { selectedType: 'gemini-api-key' },
                folderTrust: { enabled: false },
                environmentVariableRedaction: { enabled: true },
              },
            },
            beforeRun: ({ home }) => {
              const ran = install(['gemini', '--user'], { HOME: home });
              expect(ran.code, ran.stderr).toBe(0);
              const file = join(home, '.gemini', 'settings.json');
              const settings = readJson(file);
              expect(settings.security.environmentVariableRedaction).toEqual({
                enabled: true,
                allowed: ['WARDEN_URL', 'WARDEN_TOKEN'],
              });
              if (!letThrough) {
                settings.security.environmentVariableRedaction.allowed = [];
                writeFileSync(file, JSON.stringify(settings));
              }
            },
          });
          reasons.push(run.functionResponses[0]?.response.error);
          if (letThrough)
            expect(run.functionResponses[0]?.response, describeRun(run)).toMatchObject({
              error: `Tool execution blocked: ${DENY_MAIN}`,
            });
        }
        // Redacted, the token never reaches the hook, which denies for want of it.
        expect(String(reasons[1])).toMatch(/^Tool execution blocked: Warden: .*no token for /);
      });
    });
  },
);
