// `warden hook codex` (contracts §4, G14b, G14c, G22, G37): Codex CLI's
// recorded `PreToolUse` inputs (Codex 0.171.0) read field by field, its
// `apply_patch` text read into the files it touches (adversarial inputs and a
// property test), the plan of each tool, and the exact answers standalone on a
// policy file: a deny with Warden's reason, `{}` to let a call run, and
// `allow` with `updatedInput` only where the rewritten command runs under
// Warden's sandbox; every fault is deny JSON with exit 0.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodexPreToolUse } from '../../src/hook/codex.js';
import { codex, codexSandbox, planCodexCall, readCodexPreToolUse } from '../../src/hook/codex.js';
import {
  MAX_PATCH_FILES,
  parsePatch,
  patchOfShellCommand,
  unwrapPatch,
} from '../../src/hook/patch.js';
import type { HookOptions } from '../../src/hook/run.js';
import { answerHook } from '../../src/hook/run.js';
import { detectHost, sandboxBackend } from '../../src/honesty/index.js';
import { BIN, FIXTURES, GRANTED_RUN, exportedAudit, warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';

const POLICY = `version: 1
workspace: acme
rules:
  - id: protect-main
    action: gitPush
    decision: deny
    when: { refs: [main] }
  - id: feature-branches
    action: gitPush
    decision: allow
    when: { refs: ['feature/**'] }
  - id: ask-outside
    action: fileWriteOutsideWorktree
    decision: prompt
  - id: no-deletes
    action: fileDelete
    decision: deny
`;

const GATEWAY_CONFIG = `agent: codex
workspace: acme
servers:
  fake: { command: node, args: [fake-mcp.mjs] }
tools:
  fake__write_note: { actions: [fileWriteOutsideWorktree], args: { paths: [path] } }
  fake__read_note: { readOnly: true }
`;

const DENY_MAIN =
  'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace';

let root: string;
let worktree: string;
let policyFile: string;
let gatewayConfig: string;
/** A transcript whose last turn runs under `workspace-write`, and one under `danger-full-access`. */
let sandboxedTranscript: string;
let unsandboxedTranscript: string;

function turnContext(sandbox: string): string {
  return JSON.stringify({
    timestamp: '2026-12-01T21:53:54.000Z',
    type: 'turn_context',
    payload: { cwd: worktree, approval_policy: 'never', sandbox_policy: { type: sandbox } },
  });
}

beforeAll(() => {
  root = tempDir('warden-codex-');
  worktree = join(root, 'api');
  mkdirSync(join(worktree, 'src'), { recursive: true });
  mkdirSync(join(root, 'elsewhere'));
  symlinkSync(join(root, 'elsewhere'), join(worktree, 'out'));
  policyFile = join(root, 'policy.yaml');
  writeFileSync(policyFile, POLICY);
  gatewayConfig = join(root, 'gateway.yaml');
  writeFileSync(gatewayConfig, GATEWAY_CONFIG);
  sandboxedTranscript = join(root, 'rollout-sandboxed.jsonl');
  writeFileSync(
    sandboxedTranscript,
    `${JSON.stringify({ type: 'session_meta', payload: {} })}\n${turnContext('danger-full-access')}\n${turnContext('workspace-write')}\n${JSON.stringify({ type: 'response_item', payload: { type: 'message' } })}\n`,
  );
  unsandboxedTranscript = join(root, 'rollout-unsandboxed.jsonl');
  writeFileSync(unsandboxedTranscript, `${turnContext('danger-full-access')}\n`);
});

/** A recorded input with the worktree and transcript filled in. */
function recorded(name: string, transcript = sandboxedTranscript): string {
  return readFileSync(join(FIXTURES, 'codex', name), 'utf8')
    .replaceAll('WORKTREE', worktree)
    .replaceAll('TRANSCRIPT', transcript);
}

function input(tool: string, toolInput: Record<string, unknown>): CodexPreToolUse {
  const read = readCodexPreToolUse({
    session_id: 's',
    turn_id: 't',
    transcript_path: sandboxedTranscript,
    cwd: worktree,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5.5',
    permission_mode: 'bypassPermissions',
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: 'call_test',
  });
  if (Array.isArray(read)) throw new Error(read.join('; '));
  return read;
}

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

function deny(reason: string) {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  };
}

/**
 * The hook's answer to `text`, in process, with `options`, started as Codex
 * starts it: in the session's folder, the worktree calls are bound to.
 */
async function answer(text: string, options: HookOptions): Promise<unknown> {
  let out = '';
  const got = await answerHook(
    {
      stdin: () => Promise.resolve(text),
      out: (t) => {
        out += t;
      },
      env: { PATH: process.env.PATH ?? '' },
      cwd: () => worktree,
    },
    options,
    codex,
  );
  expect(out).toBe('');
  return got;
}

describe("reading Codex's input (contracts §4)", () => {
  it('every captured PreToolUse fixture is read; PermissionRequest inputs are refused, saying why', () => {
    for (const name of [
      'pretooluse-bash-git-push.json',
      'pretooluse-bash-echo-marker.json',
      'pretooluse-apply_patch-add-file.json',
      'pretooluse-apply_patch-update-file.json',
      'pretooluse-mcp-write_note.json',
    ]) {
      const read = codex.read(JSON.parse(recorded(name)));
      expect(Array.isArray(read), name).toBe(false);
      expect(read).toMatchObject({ cwd: worktree, callId: expect.stringMatching(/^call_/) });
    }
    for (const name of [
      'permissionrequest-bash-escalated.json',
      'permissionrequest-mcp-write_note.json',
    ])
      expect(codex.read(JSON.parse(recorded(name)))).toEqual([
        expect.stringContaining('this hook answers `PreToolUse` only'),
      ]);
  });

  it('lists every problem of a bad input', () => {
    expect(readCodexPreToolUse(null)).toEqual(['the input is not a JSON object']);
    expect(readCodexPreToolUse([1])).toEqual(['the input is not a JSON object']);
    expect(
      readCodexPreToolUse({
        hook_event_name: 'PostToolUse',
        cwd: 'relative',
        tool_name: '',
        tool_input: 'x',
        tool_use_id: 1,
        transcript_path: {},
      }),
    ).toHaveLength(6);
  });
});

describe('reading an apply_patch (G14c)', () => {
  it('names every file it adds, updates, moves and deletes, in order', () => {
    expect(
      parsePatch(
        patch(
          '*** Add File: a.txt',
          '+one',
          '+',
          '*** Update File: src/b.ts',
          '*** Move to: src/c.ts',
          '@@ function f',
          ' context',
          '-old',
          '+new',
          '*** End of File',
          '*** Delete File: d.txt',
          '*** Update File: e.txt',
          '@@',
          '-x',
          '+y',
        ),
      ),
    ).toEqual({
      ok: true,
      files: [
        { op: 'add', path: 'a.txt' },
        { op: 'update', path: 'src/b.ts', moveTo: 'src/c.ts' },
        { op: 'delete', path: 'd.txt' },
        { op: 'update', path: 'e.txt' },
      ],
    });
    // Windows line ends and blank lines around the patch are no part of it.
    expect(parsePatch(`\n${patch('*** Delete File: x').replaceAll('\n', '\r\n')}\n\n`)).toEqual({
      ok: true,
      files: [{ op: 'delete', path: 'x' }],
    });
    // `..` and absolute paths are reported as written; the plan judges them.
    expect(
      parsePatch(patch('*** Add File: ../../etc/x', '+1', '*** Delete File: /etc/passwd')),
    ).toMatchObject({ files: [{ path: '../../etc/x' }, { path: '/etc/passwd' }] });
  });

  it('refuses anything malformed, saying where', () => {
    const cases: [string, string][] = [
      ['', 'does not start with `*** Begin Patch`'],
      ['*** Add File: a\n+x\n*** End Patch', 'does not start with'],
      ['*** Begin Patch\n*** Add File: a\n+x\n', 'does not end with `*** End Patch`'],
      [patch(), 'names no file'],
      [patch('*** Add File: a', 'x'), 'line 3: a line of an added file must start with `+`'],
      [patch('*** Add File: '), 'names no file'],
      [patch('*** Delete File: a', '+x'), 'takes no lines'],
      [patch('+x'), 'a line before any file header'],
      [patch('*** Update File: a', '@@', '*** Move to: b'), 'not right after'],
      [patch('*** Add File: a', '*** Move to: b'), 'not right after'],
      [patch('*** Update File: a', 'junk'), 'must start with `@@`'],
      [
        patch('*** Add File: a', '*** End Patch', '*** Add File: b'),
        'before the patch’s end'.replace('’', "'"),
      ],
      [patch('*** Begin Patch'), 'a second'],
      [patch('*** Add File:', '+x'), 'names no file'],
      [patch('*** Add File: a\0b'), 'NUL'],
      [patch(`*** Add File: ${'a'.repeat(5000)}`), 'longer than 4096'],
    ];
    for (const [text, says] of cases) {
      const parsed = parsePatch(text);
      expect(parsed.ok, says).toBe(false);
      if (!parsed.ok) expect(parsed.problem, says).toContain(says);
    }
  });

  it('has hard limits on size and file count, and stays linear on a large input', () => {
    const many = patch(
      ...Array.from({ length: MAX_PATCH_FILES + 1 }, (_, i) => `*** Delete File: f${i}`),
    );
    expect(parsePatch(many)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('more than 1000 files'),
    });
    const huge = patch('*** Add File: big', `+${'x'.repeat(4 * 1024 * 1024)}`);
    expect(parsePatch(huge)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('larger than 4 MiB'),
    });
    // 3 MiB in 300 000 short lines: read in well under a second.
    const lines = Array.from({ length: 300_000 }, (_, i) => `+line ${i}`).join('\n');
    const started = performance.now();
    expect(parsePatch(patch(`*** Add File: long\n${lines}`))).toMatchObject({ ok: true });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("reads the here-document forms Codex takes: `apply_patch <<'EOF'` as a whole shell command, and a patch wrapped in one", () => {
    const body = patch('*** Add File: a.txt', '+x');
    expect(patchOfShellCommand(`apply_patch <<'EOF'\n${body}EOF\n`)).toBe(body.trimEnd());
    expect(patchOfShellCommand(`applypatch <<EOF\n${body}EOF`)).toBe(body.trimEnd());
    for (const other of [
      `cd sub && apply_patch <<'EOF'\n${body}EOF\n`,
      `apply_patch <<'EOF'\n${body}EOF\necho more\n`,
      `apply_patch <<'EOF'\n${body}END\n`,
      `apply_patch x.patch`,
      `apply_patch <<'E O F'\n${body}E O F\n`,
    ])
      expect(patchOfShellCommand(other), other).toBeNull();
    expect(unwrapPatch(`<<'EOF'\n${body}EOF\n`)).toBe(body.trimEnd());
    expect(unwrapPatch(body)).toBe(body);
    // A delimiter line inside the body never reads as a patch line: such a patch is refused.
    const early = `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\nEOF\n*** End Patch\nEOF\n`;
    expect(parsePatch(patchOfShellCommand(early) ?? '')).toMatchObject({ ok: false });
  });

  it('property: never throws, and reports every Add/Update/Delete path of a well-formed patch', () => {
    const path = fc.stringMatching(/^[A-Za-z0-9._/-]{1,20}$/).filter((p) => p.trim() === p);
    const body = fc.array(fc.stringMatching(/^[A-Za-z0-9 ]{0,10}$/), { maxLength: 4 });
    const file = fc.oneof(
      fc.record({ op: fc.constant('add' as const), path, body }),
      fc.record({ op: fc.constant('delete' as const), path, body: fc.constant([]) }),
      fc.record({
        op: fc.constant('update' as const),
        path,
        moveTo: fc.option(path, { nil: undefined }),
        body,
      }),
    );
    fc.assert(
      fc.property(fc.array(file, { minLength: 1, maxLength: 8 }), (files) => {
        const text = patch(
          ...files.flatMap((f) => {
            if (f.op === 'add') return [`*** Add File: ${f.path}`, ...f.body.map((l) => `+${l}`)];
            if (f.op === 'delete') return [`*** Delete File: ${f.path}`];
            return [
              `*** Update File: ${f.path}`,
              ...(f.moveTo === undefined ? [] : [`*** Move to: ${f.moveTo}`]),
              '@@',
              ...f.body.map((l, i) => `${i % 2 === 0 ? '-' : '+'}${l}`),
            ];
          }),
        );
        const parsed = parsePatch(text);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(parsed.files).toEqual(
          files.map((f) =>
            f.op === 'update' && f.moveTo !== undefined
              ? { op: f.op, path: f.path, moveTo: f.moveTo }
              : { op: f.op, path: f.path },
          ),
        );
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const parsed = parsePatch(text);
        expect(typeof parsed.ok).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            '*** Begin Patch',
            '*** End Patch',
            '*** Add File: a',
            '*** Update File: b',
            '*** Move to: c',
            '*** Delete File: d',
            '*** End of File',
            '@@',
            '+x',
            '-y',
            ' z',
            '',
            'junk',
          ),
          { maxLength: 30 },
        ),
        (lines) => {
          const parsed = parsePatch(lines.join('\n'));
          if (parsed.ok) expect(parsed.files.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe('what a Codex tool call asks of the gate (G14b, G14c)', () => {
  it('G14b: Bash goes to the shell classifier with the worktree, to run sandboxed once allowed where it can', async () => {
    expect(
      await planCodexCall(input('Bash', { command: 'git push origin main' }), worktree),
    ).toEqual({
      kind: 'gate',
      worktree,
      ask: {
        tool: 'Bash',
        command: 'git push origin main',
        arguments: { command: 'git push origin main' },
        callId: 'call_test',
      },
      shell: { input: { command: 'git push origin main' }, command: 'git push origin main' },
    });
    expect(await planCodexCall(input('Bash', {}), worktree)).toMatchObject({ kind: 'refuse' });
  });

  it("G14c: a Bash command that is only `apply_patch <<'EOF'` is judged as the patch Codex applies itself, never rewritten", async () => {
    const outside = await planCodexCall(
      input('Bash', {
        command: `apply_patch <<'EOF'\n${patch('*** Add File: ../x.env', '+x')}EOF\n`,
      }),
      worktree,
    );
    expect(outside).toMatchObject({
      kind: 'gate',
      ask: {
        tool: 'Bash',
        actions: ['fileWriteOutsideWorktree'],
        args: { paths: [join(root, 'x.env')] },
      },
    });
    expect((outside as { shell?: unknown }).shell).toBeUndefined();
    expect(
      await planCodexCall(
        input('Bash', { command: `apply_patch <<EOF\n${patch('*** Add File: y', '+y')}EOF` }),
        worktree,
      ),
    ).toMatchObject({ kind: 'ungated' });
    expect(
      await planCodexCall(
        input('apply_patch', { command: `<<'EOF'\n${patch('*** Delete File: y')}EOF\n` }),
        worktree,
      ),
    ).toMatchObject({ kind: 'gate', ask: { actions: ['fileDelete'] } });
  });

  it('G14c: apply_patch: writes inside the worktree pass; outside (through `..`, an absolute path or a link) they are gated; deletes are fileDelete; both in one ask', async () => {
    expect(
      await planCodexCall(
        input('apply_patch', {
          command: patch('*** Add File: src/a.ts', '+x', '*** Update File: b.ts', '@@', '+y'),
        }),
        worktree,
      ),
    ).toEqual({
      kind: 'ungated',
      reason: '`apply_patch` writes inside the worktree only (not gated)',
    });
    expect(
      await planCodexCall(
        input('apply_patch', { command: patch('*** Add File: ../x.env', '+x') }),
        worktree,
      ),
    ).toMatchObject({
      kind: 'gate',
      ask: { actions: ['fileWriteOutsideWorktree'], args: { paths: [join(root, 'x.env')] } },
    });
    expect(
      await planCodexCall(
        input('apply_patch', { command: patch('*** Add File: out/x.env', '+x') }),
        worktree,
      ),
    ).toMatchObject({ kind: 'gate', ask: { actions: ['fileWriteOutsideWorktree'] } });
    expect(
      await planCodexCall(
        input('apply_patch', {
          command: patch('*** Delete File: src/old.ts', '*** Add File: /etc/x.conf', '+x'),
        }),
        worktree,
      ),
    ).toMatchObject({
      kind: 'gate',
      worktree,
      ask: {
        tool: 'apply_patch',
        callId: 'call_test',
        actions: ['fileDelete', 'fileWriteOutsideWorktree'],
        args: { paths: [join(worktree, 'src/old.ts'), '/etc/x.conf'] },
      },
    });
    // A move removes the file it moves.
    expect(
      await planCodexCall(
        input('apply_patch', { command: patch('*** Update File: a', '*** Move to: b', '@@') }),
        worktree,
      ),
    ).toMatchObject({ ask: { actions: ['fileDelete'], args: { paths: [join(worktree, 'a')] } } });
    expect(
      await planCodexCall(input('apply_patch', { command: 'rm -rf /' }), worktree),
    ).toMatchObject({
      kind: 'refuse',
      reason: expect.stringContaining('not one Warden can read'),
    });
    expect(await planCodexCall(input('apply_patch', {}), worktree)).toMatchObject({
      kind: 'refuse',
    });
  });

  it("Codex's own tools: reads and session steering pass with a reason; web_search is egress; write_stdin and unknown tools are denied", async () => {
    for (const tool of ['view_image', 'request_user_input', 'get_goal', 'tool_search'])
      expect(await planCodexCall(input(tool, {}), worktree)).toMatchObject({
        kind: 'ungated',
        reason: expect.stringMatching(new RegExp(`^\`${tool}\` \\w`)),
      });
    expect(await planCodexCall(input('web_search', { query: 'q' }), worktree)).toMatchObject({
      kind: 'gate',
      ask: { actions: ['networkEgress'] },
    });
    expect(
      await planCodexCall(input('write_stdin', { chars: 'rm -rf /\n' }), worktree),
    ).toMatchObject({
      kind: 'refuse',
      reason: expect.stringContaining('cannot classify'),
    });
    expect(await planCodexCall(input('spawn_agent', {}), worktree)).toMatchObject({
      kind: 'refuse',
      reason:
        '`spawn_agent` is a Codex tool Warden does not know, so it cannot tell what it does: denied',
    });
  });

  it("G1: MCP tools: Warden's gateway keeps its own; others need --gateway-config, which maps them", async () => {
    const note = { path: '/etc/note.txt', text: 'x' };
    expect(await planCodexCall(input('mcp__warden__fs__write_file', {}), worktree)).toMatchObject({
      kind: 'ungated',
    });
    expect(await planCodexCall(input('mcp__fake__write_note', note), worktree)).toMatchObject({
      kind: 'refuse',
      reason: expect.stringContaining('give Codex this server through `warden gateway`'),
    });
    expect(
      await planCodexCall(input('mcp__fake__write_note', note), worktree, 'warden', gatewayConfig),
    ).toMatchObject({
      kind: 'gate',
      ask: { actions: ['fileWriteOutsideWorktree'], args: { paths: ['/etc/note.txt'] } },
    });
    expect(
      await planCodexCall(input('mcp__fake__read_note', {}), worktree, 'warden', gatewayConfig),
    ).toMatchObject({ kind: 'ungated' });
  });

  it('names the files a patch and view_image touch, for the data folder guard; none for Bash', () => {
    const read = (tool: string, args: Record<string, unknown>) => {
      const got = codex.read({ ...input(tool, args) });
      if (Array.isArray(got)) throw new Error(got.join('; '));
      return codex.namedPaths(got);
    };
    expect(
      read('apply_patch', { command: patch('*** Update File: a', '*** Move to: ../b', '@@') }),
    ).toEqual([join(worktree, 'a'), join(root, 'b')]);
    expect(read('view_image', { path: 'x.png' })).toEqual([join(worktree, 'x.png')]);
    expect(read('Bash', { command: 'cat .warden/warden.db' })).toEqual([]);
    expect(read('apply_patch', { command: 'garbage' })).toEqual([]);
  });

  it("reads Codex's sandbox for the turn from the end of the transcript", () => {
    expect(codexSandbox(sandboxedTranscript)).toBe('workspace-write');
    expect(codexSandbox(unsandboxedTranscript)).toBe('danger-full-access');
    expect(codexSandbox(join(root, 'none.jsonl'))).toBeNull();
    expect(codexSandbox(undefined)).toBeNull();
    expect(codexSandbox('relative.jsonl')).toBeNull();
    const broken = join(root, 'broken.jsonl');
    writeFileSync(broken, '{"type":"turn_context", not json\n');
    expect(codexSandbox(broken)).toBeNull();
  });
});

describe('standalone answers: deny with a reason, `{}` to let a call run (G22, G37)', () => {
  const standalone = (extra: HookOptions = {}): HookOptions => ({
    policy: policyFile,
    data: tempDir(),
    ...extra,
  });

  it('G37: answers the recorded inputs with the exact JSON, and the audit has each decision with source `codex`', async () => {
    const data = tempDir();
    const options = standalone({ data, gatewayConfig });
    expect(await answer(recorded('pretooluse-bash-git-push.json'), options)).toEqual(
      deny(DENY_MAIN),
    );
    // Allowed under Codex's own sandbox (`workspace-write`): no rewrite, no objection.
    expect(await answer(recorded('pretooluse-bash-echo-marker.json'), options)).toEqual({});
    expect(await answer(recorded('pretooluse-apply_patch-add-file.json'), options)).toEqual({});
    expect(await answer(recorded('pretooluse-apply_patch-update-file.json'), options)).toEqual({});
    // The MCP tool is decided by its mapping in --gateway-config: a write the policy asks about.
    expect(await answer(recorded('pretooluse-mcp-write_note.json'), options)).toEqual(
      deny(
        'Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside` in workspace; no approver is connected, so it is denied (fail-closed)',
      ),
    );
    const entries = exportedAudit<{
      kind: string;
      source?: string;
      callId?: string;
      outcome?: string;
    }>(data).filter((e) => e.kind === 'decision');
    expect(entries.map((e) => [e.source, e.callId, e.outcome])).toEqual([
      ['codex', 'call_fakeharness_0001', 'deny'],
      ['codex', 'call_fakeharness_0001', 'allow'],
      ['codex', 'call_fakeharness_0001', 'deny'],
    ]);
  });

  it('G22, G14c: a patch outside the worktree prompts and, with nobody to ask, is denied; a delete is denied by its rule', async () => {
    const outside = recorded('pretooluse-apply_patch-add-file.json').replace(
      'Add File: notes.txt',
      'Add File: ../../outside.txt',
    );
    expect(await answer(outside, standalone())).toEqual(
      deny(
        'Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside` in workspace; no approver is connected, so it is denied (fail-closed)',
      ),
    );
    const both = recorded('pretooluse-apply_patch-add-file.json').replace(
      'Add File: notes.txt',
      'Delete File: src/old.ts\\n*** Add File: ../../outside.txt',
    );
    const answered = (await answer(both, standalone())) as ReturnType<typeof deny>;
    expect(answered.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answered.hookSpecificOutput.permissionDecisionReason).toContain('no-deletes');
  });

  it("a patch reaching Warden's data folder is denied before any policy is read", async () => {
    const data = join(worktree, '.warden');
    const text = recorded('pretooluse-apply_patch-add-file.json').replace(
      'notes.txt',
      '.warden/keys.txt',
    );
    expect(await answer(text, standalone({ data }))).toEqual(
      deny(
        `Warden: \`apply_patch\` reaches \`${join(data, 'keys.txt')}\` in Warden's data folder, which no agent may read or change`,
      ),
    );
  });

  it('G2: where Codex does not sandbox commands itself, an allowed Bash call is rewritten to run under Warden’s sandbox; `--sandbox required` denies it where Codex does', async () => {
    const backend = sandboxBackend(detectHost());
    const echo = recorded('pretooluse-bash-echo-marker.json', unsandboxedTranscript);
    const rewritten = (await answer(echo, standalone())) as {
      hookSpecificOutput: { permissionDecision: string; updatedInput?: { command: string } };
    };
    if (backend === null) expect(rewritten).toEqual({});
    else {
      expect(rewritten.hookSpecificOutput.permissionDecision).toBe('allow');
      expect(rewritten.hookSpecificOutput.updatedInput?.command).toMatch(GRANTED_RUN);
      expect(rewritten.hookSpecificOutput.updatedInput?.command).toMatch(
        /'echo hello > marker.txt'$/,
      );
    }
    expect(
      await answer(
        recorded('pretooluse-bash-echo-marker.json'),
        standalone({ sandbox: 'required' }),
      ),
    ).toEqual(
      deny(
        backend === null
          ? (expect.stringContaining('no sandbox backend') as unknown as string)
          : "Warden: shell commands must run sandboxed (`--sandbox required`), but Codex runs shell commands inside its own sandbox (`workspace-write`), where Warden's cannot start",
      ),
    );
    expect(
      await answer(
        recorded('pretooluse-bash-echo-marker.json', join(root, 'gone.jsonl')),
        standalone({ sandbox: 'required' }),
      ),
    ).toMatchObject(
      deny(expect.stringContaining('cannot be read from its transcript') as unknown as string),
    );
    expect(await answer(echo, standalone({ sandbox: 'off' }))).toEqual({});
  });

  it('G37: every fault is a deny with a non-empty reason', async () => {
    const cases: [string, HookOptions, string][] = [
      ['', standalone(), 'no input'],
      ['{"tool_name":', standalone(), 'not JSON'],
      [
        '{"hook_event_name":"PreToolUse","cwd":"/x","tool_name":"Bash","tool_input":{"command":"\uD800"}}',
        standalone(),
        'not valid Unicode',
      ],
      [recorded('permissionrequest-bash-escalated.json'), standalone(), 'not a `PreToolUse` call'],
      [recorded('pretooluse-bash-git-push.json'), {}, 'the hook has no policy'],
      [
        recorded('pretooluse-bash-git-push.json'),
        { server: 'http://127.0.0.1:9', token: 't' },
        'cannot reach the Warden server',
      ],
      [
        recorded('pretooluse-bash-git-push.json'),
        standalone({ timeout: 'soon' }),
        '`--timeout soon`',
      ],
      [
        recorded('pretooluse-apply_patch-add-file.json').replace('*** Begin Patch', 'Begin'),
        standalone(),
        'not one Warden can read',
      ],
    ];
    for (const [text, options, says] of cases) {
      const got = (await answer(text, options)) as ReturnType<typeof deny>;
      expect(got, says).toMatchObject(deny(expect.stringContaining(says) as unknown as string));
      expect(got.hookSpecificOutput.permissionDecisionReason.length).toBeGreaterThan(
        'Warden: '.length,
      );
    }
    expect(codex.deny('')).toEqual(deny('Warden: denied'));
  });

  it('G37: through the real binary, invalid Unicode in the JSON and bad flags still end in a deny Codex honours', () => {
    const bytes = Buffer.concat([
      Buffer.from(
        `{"hook_event_name":"PreToolUse","cwd":${JSON.stringify(worktree)},"tool_name":"Bash","tool_input":{"command":"git push origin main`,
      ),
      Buffer.from([0xff, 0xfe, 0xc0]),
      Buffer.from('"}}'),
    ]);
    const ran = spawnSync(
      process.execPath,
      [BIN, 'hook', 'codex', '--policy', policyFile, '--data', tempDir()],
      {
        input: bytes,
        encoding: 'utf8',
        env: { ...process.env, WARDEN_URL: '', WARDEN_TOKEN: '' },
      },
    );
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject(
      deny(expect.stringMatching(/^Warden: \S/) as unknown as string),
    );
    const bad = warden(['hook', 'codex', '--no-such-flag'], { input: '{}' });
    // Exit 2 with the reason on standard error: Codex blocks the call and shows the reason.
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Warden: bad hook arguments: .*denied, fail-closed\n$/);
  });
});
