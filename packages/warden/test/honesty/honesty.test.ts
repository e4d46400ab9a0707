// The honesty matrix (G37, G2, G7): no adapter claims coverage it does not
// have, the sandbox column follows the host and what `warden doctor`'s checks
// of each sandboxed path showed, and the host statement says when the guard
// rules are the outermost layer. The hosts and the checks' results are injected.

import { describe, expect, it } from 'vitest';
import type { AdapterRow, HostFacts, ProbeResult } from '../../src/honesty/index.js';
import {
  AVAILABLE_IN_THIS_BUILD,
  MATRIX_COLUMNS,
  PROBE_PATHS,
  allowDefaults,
  detectHost,
  honestyMatrix,
  renderMatrix,
} from '../../src/honesty/index.js';
import { warden } from '../helpers.js';

/** A file system that holds exactly these executables. */
const only =
  (...paths: string[]) =>
  (path: string): boolean =>
    paths.includes(path);

const BARE_LINUX = detectHost({
  platform: 'linux',
  env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
  exists: only('/usr/bin/socat'),
});
const SANDBOX_LINUX = detectHost({
  platform: 'linux',
  env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
  exists: only('/usr/bin/bwrap', '/usr/bin/socat', '/usr/bin/unshare'),
});
const NO_UNSHARE_LINUX = detectHost({
  platform: 'linux',
  env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
  exists: only('/usr/bin/bwrap', '/usr/bin/socat'),
});
const WINDOWS: HostFacts = { platform: 'win32', bwrap: null, socat: null };
const MACOS = detectHost({
  platform: 'darwin',
  env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
  exists: only('/usr/bin/sandbox-exec'),
});

/** Every path's check with the same status; `failed` ones say why. */
const checks = (
  status: ProbeResult['status'],
  overrides: Partial<Record<ProbeResult['path'], ProbeResult['status']>> = {},
): ProbeResult[] =>
  PROBE_PATHS.map((path) => {
    const s = overrides[path] ?? status;
    return {
      path,
      status: s,
      detail:
        s === 'failed' ? `bwrap: No permissions to create new namespace (${path})` : `${path} ${s}`,
    };
  });

/** A specification id such as `G5`, `G14b` or `E17b`: users read sentences, never these. */
const SPEC_ID = /\b[GEIA][0-9]{1,2}[a-c]?\b/;

function rowOf(adapters: readonly AdapterRow[], id: string): AdapterRow {
  const found = adapters.find((a) => a.adapter === id);
  if (found === undefined) throw new Error(`no row \`${id}\``);
  return found;
}

describe('the honesty matrix (G37)', () => {
  const matrix = honestyMatrix(SANDBOX_LINUX, { version: '0.1.0' });
  const row = (id: string) => rowOf(matrix.adapters, id);

  it('declares the nine adapters, each with exactly the five columns', () => {
    expect(matrix.adapters.map((a) => a.adapter)).toEqual([
      'builtin',
      'library',
      'exec',
      'mcp-gateway',
      'claude-code-via-gateway',
      'claude-code-hook',
      'codex-hook',
      'gemini-cli-hook',
      'decide-api',
    ]);
    for (const a of matrix.adapters) expect(Object.keys(a.cells)).toEqual([...MATRIX_COLUMNS]);
  });

  it('gives every cell a one-line, non-empty note and a value of true, false or partial', () => {
    const hosts = [BARE_LINUX, SANDBOX_LINUX, MACOS, WINDOWS];
    const all = hosts.flatMap((h) =>
      [undefined, checks('ok'), checks('failed')].flatMap(
        (probes) => honestyMatrix(h, probes === undefined ? {} : { probes }).adapters,
      ),
    );
    for (const a of all) {
      for (const column of MATRIX_COLUMNS) {
        const cell = a.cells[column];
        expect([true, false, 'partial'], `${a.adapter}.${column}`).toContain(cell.value);
        expect(cell.note.trim().length, `${a.adapter}.${column}`).toBeGreaterThan(20);
        expect(cell.note, `${a.adapter}.${column}`).not.toMatch(/\n/);
        // Users read sentences, never the specification's ids.
        expect(cell.note, `${a.adapter}.${column}`).not.toMatch(SPEC_ID);
      }
      expect(a.title.length).toBeGreaterThan(0);
      expect(a.basis.length).toBeGreaterThan(0);
    }
    for (const h of hosts) {
      expect(honestyMatrix(h).host.statement).not.toMatch(SPEC_ID);
      expect(honestyMatrix(h, { probes: checks('ok') }).host.statement).not.toMatch(SPEC_ID);
    }
  });

  it('says that the gateway trims its tool list by policy only with `hideDenied: true`', () => {
    const gw = row('mcp-gateway').cells.filtersToolSurface;
    expect(gw.value).toBe(true);
    expect(gw.note).toContain('trimmed by policy only with `hideDenied: true`');
    expect(gw.note).toContain('without it a tool whose every call is denied is still listed');
    expect(gw.note).not.toContain('not trimmed by policy');
  });

  it('lets no adapter claim to see native tools except the runtimes’ hooks', () => {
    const claiming = matrix.adapters.filter((a) => a.cells.seesNativeTools.value !== false);
    expect(claiming.map((a) => a.adapter)).toEqual([
      'claude-code-hook',
      'codex-hook',
      'gemini-cli-hook',
    ]);
  });

  it('says of the Codex and Gemini CLI hooks what they do not see, with the version each was run with (G37)', () => {
    const codex = row('codex-hook');
    expect(codex.verifiedWith).toBe('codex 0.171.0');
    expect(codex.cells.seesNativeTools.value).toBe('partial');
    expect(codex.cells.seesNativeTools.note).toContain('`write_stdin` does not');
    expect(codex.cells.interceptsToolCalls.note).toContain('not trusted');
    expect(codex.cells.observesCompletion.value).toBe(true);
    const gemini = row('gemini-cli-hook');
    expect(gemini.verifiedWith).toBe('gemini-cli 0.61.0');
    expect(gemini.cells.interceptsToolCalls.note).toContain('hangs on `ask`');
    expect(gemini.cells.observesCompletion.value).toBe(true);
    for (const hook of [codex, gemini]) {
      expect(hook.cells.filtersToolSurface.value).toBe(false);
      expect(hook.cells.sandboxCovered.value).toBe('partial');
    }
    expect(codex.cells.sandboxCovered.note).toContain('danger-full-access');
  });

  it('says that Claude Code seen only through the gateway runs its own tools unseen, and gates only its `mcp__*` calls', () => {
    const gw = row('claude-code-via-gateway');
    expect(gw.cells.seesNativeTools.value).toBe(false);
    expect(gw.cells.seesNativeTools.note).toMatch(/Read, Write, Edit and Bash tools run unseen/);
    expect(gw.cells.interceptsToolCalls.value).toBe('partial');
    expect(gw.cells.interceptsToolCalls.note).toContain('`mcp__*`');
    expect(gw.cells.interceptsToolCalls.note).toContain('run unseen');
  });

  it('says of the hook that only a deny is reliable, that a failing hook lets the call through, and names the version it was seen with', () => {
    const hook = row('claude-code-hook');
    expect(hook.verifiedWith).toBe('claude-code 2.1.197');
    const intercepts = hook.cells.interceptsToolCalls;
    expect(intercepts.value).toBe('partial');
    expect(intercepts.note).toContain('only a deny is reliable across versions');
    expect(intercepts.note).toContain('--dangerously-skip-permissions');
    expect(intercepts.note).toContain('claude-code 2.1.197');
    expect(intercepts.note).toMatch(/crashes, times out or prints bad JSON lets the call through/);
    expect(hook.cells.observesCompletion.value).toBe(true);
    expect(hook.cells.observesCompletion.note).toContain('`PostToolUse`');
  });

  it('states that the built-in file tools are not sandboxed: the tool surface and the engine are their only boundary', () => {
    const builtin = row('builtin');
    expect(builtin.cells.filtersToolSurface.value).toBe(true);
    expect(builtin.cells.interceptsToolCalls.value).toBe(true);
    expect(builtin.cells.observesCompletion.value).toBe(true);
    // On a host with a backend only `run_command` is under it: never the whole row.
    expect(builtin.cells.sandboxCovered.value).toBe('partial');
    expect(builtin.cells.sandboxCovered.note).toContain(
      'the tool surface and this engine are their only file-system boundary',
    );
  });

  it('lets a library agent claim only the calls it wraps', () => {
    const library = row('library');
    expect(library.cells.filtersToolSurface.value).toBe(false);
    expect(library.cells.interceptsToolCalls.value).toBe('partial');
    expect(library.cells.interceptsToolCalls.note).toContain('runs unseen');
  });

  it('marks the gateway and the hook as in this build, and names the version each row was checked with', () => {
    expect(AVAILABLE_IN_THIS_BUILD).toEqual({
      builtin: true,
      library: true,
      exec: true,
      'mcp-gateway': true,
      'claude-code-via-gateway': true,
      'claude-code-hook': true,
      'codex-hook': true,
      'gemini-cli-hook': true,
      'decide-api': true,
    });
    for (const a of matrix.adapters)
      expect(a.available).toBe(
        AVAILABLE_IN_THIS_BUILD[a.adapter as keyof typeof AVAILABLE_IN_THIS_BUILD],
      );
    expect(row('builtin').verifiedWith).toBe('warden 0.1.0');
    expect(row('exec').verifiedWith).toBe('warden 0.1.0');
    expect(row('decide-api').verifiedWith).toBe('warden 0.1.0');
    expect(row('mcp-gateway').verifiedWith).toBe('mcp 2025-06-18');
    expect(row('mcp-gateway').basis).toContain('`warden gateway` is in this build');
    expect(row('claude-code-via-gateway').basis).toContain('not with a running Claude Code');
    expect(row('claude-code-hook').basis).toContain('recorded Claude Code inputs');
    expect(row('claude-code-hook').basis).toContain('end to end with the real claude-code 2.1.197');
    expect(honestyMatrix(SANDBOX_LINUX).adapters[0]?.verifiedWith).toMatch(/^warden \d+\.\d+\.\d+/);
  });
});

describe('the sandbox column and the host statement (G2, G7)', () => {
  it('finds `bwrap` and `socat` by searching the PATH entries, skipping empty and relative ones', () => {
    expect(SANDBOX_LINUX).toMatchObject({ bwrap: '/usr/bin/bwrap', socat: '/usr/bin/socat' });
    expect(BARE_LINUX).toMatchObject({ bwrap: null, socat: '/usr/bin/socat' });
    const relative = detectHost({
      platform: 'linux',
      env: { PATH: ':bin:./tools' },
      exists: () => true,
    });
    expect(relative).toMatchObject({ bwrap: null, socat: null });
    const windows = detectHost({
      platform: 'win32',
      env: { Path: 'C:\\tools', PATHEXT: '.EXE' },
      exists: only('C:\\tools\\socat.EXE'),
    });
    expect(windows).toMatchObject({
      platform: 'win32',
      bwrap: null,
      socat: 'C:\\tools\\socat.EXE',
    });
  });

  it('on a host without `bwrap`, every adapter is sandbox-uncovered, every cell names what is missing, and the host statement says the guard rules are the outermost layer (G2, G7)', () => {
    const m = honestyMatrix(BARE_LINUX);
    expect(m.host.sandboxBackend).toBe(false);
    expect(m.host.floorMissing).toBe(true);
    for (const probes of [undefined, checks('skipped')])
      for (const a of honestyMatrix(BARE_LINUX, probes === undefined ? {} : { probes }).adapters) {
        expect(a.cells.sandboxCovered.value, a.adapter).toBe(false);
        expect(a.cells.sandboxCovered.note).toContain(
          'this host has no sandbox backend either (Linux without `bwrap` on the PATH',
        );
      }
    const hook = rowOf(m.adapters, 'claude-code-hook').cells.sandboxCovered.note;
    expect(hook).toContain(
      "the hook's `--sandbox auto` lets an allowed `Bash` command run as it is",
    );
    expect(rowOf(m.adapters, 'exec').cells.sandboxCovered.note).toContain(
      '`warden exec` refuses to run the command unless `--no-sandbox` is given',
    );
    expect(m.host.statement).toContain('the guard rules are the outermost enforcement layer here');
    expect(m.host.statement).toContain('Linux without `bwrap` on the PATH');
    expect(m.host.statement).toContain('the eight allow defaults');
    expect(m.host.statement).toContain('sandbox floor that is missing');
    expect(allowDefaults()).toHaveLength(8);
    for (const c of allowDefaults()) expect(m.host.statement).toContain(`\`${c}\``);
  });

  it('on Windows there is no backend, whatever is on the PATH', () => {
    const m = honestyMatrix({ ...WINDOWS, bwrap: 'C:\\bwrap.exe', socat: 'C:\\socat.exe' });
    expect(m.host.sandboxBackend).toBe(false);
    expect(m.host.statement).toContain('(Windows)');
    expect(m.host.statement).toContain('the guard rules are the outermost enforcement layer here');
    for (const a of m.adapters) expect(a.cells.sandboxCovered.value).toBe(false);
  });

  it('on a host with `bwrap` and `socat` and no checks run, the paths Warden starts claim coverage only "where the backend runs" (G2, G7)', () => {
    const m = honestyMatrix(SANDBOX_LINUX);
    expect(m.host.sandboxBackend).toBe(true);
    expect(m.host.backend).toBe('bwrap+socat');
    expect(m.host.floorMissing).toBe(true);
    expect(m.host.statement).toContain('offers a sandbox backend');
    expect(m.host.statement).toContain('`/usr/bin/bwrap`');
    expect(m.host.statement).toContain(
      "the built-in `run_command`, `warden exec`, the shell commands the Claude Code and Gemini CLI hooks allow (and the Codex hook's, under Codex's `danger-full-access`) and the stdio servers the MCP gateway starts run under it (where the backend runs: `warden doctor` checks each path)",
    );
    expect(m.host.statement).toContain(
      "the agent runtimes' own file, web and MCP tools (Claude Code's, Codex's, Gemini CLI's)",
    );
    expect(m.host.statement).toContain('whatever an agent that asks a Warden server itself runs');
    expect(m.host.statement).not.toContain('outermost enforcement layer here');
    expect(m.host.statement).not.toBe(honestyMatrix(BARE_LINUX).host.statement);
    for (const id of [
      'builtin',
      'exec',
      'mcp-gateway',
      'claude-code-via-gateway',
      'claude-code-hook',
    ]) {
      const cell = rowOf(m.adapters, id).cells.sandboxCovered;
      expect(cell.value, id).toBe('partial');
      expect(cell.note, id).toMatch(
        /^where the backend runs \(`bwrap` at `\/usr\/bin\/bwrap`.*not checked here/,
      );
    }
    for (const id of ['library', 'decide-api']) {
      const cell = rowOf(m.adapters, id).cells.sandboxCovered;
      expect(cell.value, id).toBe(false);
      expect(cell.note).toContain("this adapter's tools do not run under it");
    }
    expect(rowOf(m.adapters, 'decide-api').cells.sandboxCovered.note).toContain(
      'Warden cannot sandbox what such an agent runs',
    );
    const builtin = rowOf(m.adapters, 'builtin').cells.sandboxCovered;
    expect(builtin.note).toContain("`run_command`'s shell commands run under the OS sandbox");
    // G37: the file tools stay uncovered, and the note says so in the spec's words.
    expect(builtin.note).toContain(
      'the tool surface and this engine are their only file-system boundary',
    );
    expect(builtin.note).toContain('git, `gh` and `http_fetch` run with the full rights');
  });

  it('once every check passed, `warden exec` is covered and the hook and the gateway are partly covered, each naming what stays outside (G2, G37)', () => {
    const m = honestyMatrix(SANDBOX_LINUX, { probes: checks('ok') });
    const cell = (id: string) => rowOf(m.adapters, id).cells.sandboxCovered;
    expect(m.host.floorMissing).toBe(false);
    expect(m.host.statement).toContain('(checked on this host for `run_command`');
    expect(cell('exec').value).toBe(true);
    expect(cell('exec').note).toMatch(/^covered, by `bwrap` .*checked on this host \(exec ok\)/);
    expect(cell('exec').note).toContain("nor Warden's data folder");
    expect(cell('claude-code-hook').value).toBe('partial');
    expect(cell('claude-code-hook').note).toContain('checked on this host (hook ok)');
    expect(cell('claude-code-hook').note).toContain('`warden exec --grant …`');
    for (const outside of [
      "Write, Edit, MultiEdit and NotebookEdit run inside Claude Code's own process",
      'WebFetch and WebSearch run in Claude Code',
      'MCP servers Claude Code reaches directly',
      '`dangerouslyDisableSandbox: true` runs unsandboxed once a human approved it (it always prompts)',
    ])
      expect(cell('claude-code-hook').note).toContain(outside);
    expect(cell('mcp-gateway').value).toBe('partial');
    expect(cell('mcp-gateway').note).toContain('checked on this host (gateway ok)');
    expect(cell('mcp-gateway').note).toContain('servers reached by URL (Streamable HTTP)');
    expect(cell('claude-code-via-gateway').value).toBe('partial');
    expect(cell('claude-code-via-gateway').note).toContain(
      'native Read, Write, Edit, Bash and web tools in its own process',
    );
    expect(cell('builtin').value).toBe('partial');
    expect(cell('builtin').note).toContain('checked on this host (run_command ok)');
    expect(cell('library').value).toBe(false);
    expect(cell('decide-api').value).toBe(false);
  });

  it('a path whose check failed claims nothing, says why and what then happens, and the statement names it (G2, G7)', () => {
    const m = honestyMatrix(SANDBOX_LINUX, {
      probes: checks('ok', { hook: 'failed', exec: 'failed' }),
    });
    const cell = (id: string) => rowOf(m.adapters, id).cells.sandboxCovered;
    expect(cell('exec').value).toBe(false);
    expect(cell('exec').note).toContain(
      'the check of this path failed (bwrap: No permissions to create new namespace (exec))',
    );
    expect(cell('exec').note).toContain(
      '`warden exec` runs no command while its sandbox cannot start',
    );
    expect(cell('claude-code-hook').value).toBe(false);
    expect(cell('claude-code-hook').note).toContain('never runs it without the sandbox');
    expect(cell('mcp-gateway').value).toBe('partial');
    expect(m.host.floorMissing).toBe(true);
    expect(m.host.statement).toContain(
      "except where the check on this host failed (the hook's `Bash` commands, `warden exec`)",
    );
  });

  it('a skipped check counts as not run: the cell says "where the backend runs"', () => {
    const m = honestyMatrix(SANDBOX_LINUX, { probes: checks('skipped') });
    expect(rowOf(m.adapters, 'exec').cells.sandboxCovered.value).toBe('partial');
    expect(m.host.statement).toContain('where the backend runs: `warden doctor` checks each path');
  });

  it('on macOS the sandbox is untested: no cell is ever true, even when the checks passed (G37)', () => {
    for (const probes of [undefined, checks('ok')]) {
      const m = honestyMatrix(MACOS, probes === undefined ? {} : { probes });
      expect(m.host.backend).toBe('sandbox-exec');
      expect(m.host.statement).toContain('untested on macOS');
      for (const a of m.adapters) expect(a.cells.sandboxCovered.value, a.adapter).toBe(false);
      for (const id of ['builtin', 'exec', 'mcp-gateway', 'claude-code-hook']) {
        const note = rowOf(m.adapters, id).cells.sandboxCovered.note;
        expect(note, id).toMatch(/^untested: on macOS /);
        expect(note, id).toContain(
          "Warden's sandbox is not tested on macOS, so no coverage is claimed",
        );
      }
    }
    const checked = honestyMatrix(MACOS, { probes: checks('ok') });
    expect(rowOf(checked.adapters, 'exec').cells.sandboxCovered.note).toContain(
      'the check on this host passed: exec ok',
    );
  });

  it('without `unshare` the host still has its sandbox, and says that writes then land as they happen (G2, E44)', () => {
    const m = honestyMatrix(NO_UNSHARE_LINUX);
    expect(m.host.sandboxBackend).toBe(true);
    expect(m.host.transactional).toBe(false);
    expect(m.host.statement).toContain('no `unshare`');
    const full = honestyMatrix(SANDBOX_LINUX);
    expect(full.host.transactional).toBe(true);
    expect(full.host.statement).toContain('decided before it lands');
  });

  it('detects this host without being told anything', () => {
    const host = honestyMatrix(detectHost()).host;
    expect(host.platform).toBe(process.platform);
    for (const found of [host.bwrap, host.socat, host.unshare])
      expect(found === null || typeof found === 'string').toBe(true);
  });
});

describe('renderMatrix', () => {
  it('prints the host statement first, then every adapter with a mark in every column and every note', () => {
    const m = honestyMatrix(BARE_LINUX, { version: '0.1.0' });
    const text = renderMatrix(m);
    const lines = text.split('\n');
    expect(lines[1]).toBe(m.host.statement);
    const header = lines.find((l) => l.startsWith('adapter'));
    for (const column of MATRIX_COLUMNS) expect(header).toContain(column);
    for (const a of m.adapters) {
      const tableRow = lines.find((l) => l.startsWith(`${a.adapter} `));
      expect(tableRow, a.adapter).toBeDefined();
      expect(tableRow?.match(/[✓✗~]/g)).toHaveLength(MATRIX_COLUMNS.length);
      for (const column of MATRIX_COLUMNS) expect(text).toContain(a.cells[column].note);
    }
    expect(lines.find((l) => l.startsWith('builtin '))).toMatch(
      /yes\s+✓\s+✓\s+✓\s+✗\s+✗\s+warden 0\.1\.0$/,
    );
    expect(lines.find((l) => l.startsWith('claude-code-hook '))).toMatch(
      /yes\s+✗\s+~\s+✓\s+✓\s+✗\s+claude-code 2\.1\.197$/,
    );
    expect(text).not.toContain('(not in this build: specified, not run)');
  });
});

describe('warden doctor (G37): the matrix of the host it runs on', () => {
  it('prints the host, its sandbox backend and every adapter; --json the same data; --no-probe runs no check', () => {
    const human = warden(['doctor', '--no-probe']);
    expect(human.code).toBe(0);
    const host = honestyMatrix(detectHost()).host;
    expect(human.stdout).toContain(
      `host: ${host.platform}; sandbox backend: ${host.backend ?? 'none'}`,
    );
    for (const a of honestyMatrix(detectHost()).adapters)
      expect(human.stdout).toContain(`${a.adapter} `);
    expect(human.stdout).not.toContain('sandbox check');
    const json = warden(['doctor', '--json', '--no-probe']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      host: { backend: string | null };
      adapters: { adapter: string }[];
    };
    expect(parsed.host.backend).toBe(host.backend);
    expect(parsed.adapters.map((a) => a.adapter)).toContain('claude-code-hook');
    expect(parsed).toMatchObject({ probe: null, probes: null });
  });
});
