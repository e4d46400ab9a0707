// The honesty matrix (G37, G2, G7): no adapter claims coverage it does not
// have, the sandbox column follows the host, and the host statement says when
// the guard rules are the outermost layer. The hosts are injected.

import { describe, expect, it } from 'vitest';
import type { AdapterRow, HostFacts } from '../src/honesty/index.js';
import {
  AVAILABLE_IN_THIS_BUILD,
  MATRIX_COLUMNS,
  allowDefaults,
  detectHost,
  honestyMatrix,
  renderMatrix,
} from '../src/honesty/index.js';
import { warden } from './helpers.js';

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
  exists: only('/usr/bin/bwrap', '/usr/bin/socat', '/usr/bin/rg'),
});
const NO_RG_LINUX = detectHost({
  platform: 'linux',
  env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
  exists: only('/usr/bin/bwrap', '/usr/bin/socat'),
});
const WINDOWS: HostFacts = { platform: 'win32', bwrap: null, socat: null };

function rowOf(adapters: readonly AdapterRow[], id: string): AdapterRow {
  const found = adapters.find((a) => a.adapter === id);
  if (found === undefined) throw new Error(`no row \`${id}\``);
  return found;
}

describe('the honesty matrix (G37)', () => {
  const matrix = honestyMatrix(SANDBOX_LINUX, { version: '0.1.0' });
  const row = (id: string) => rowOf(matrix.adapters, id);

  it('declares the five adapters, each with exactly the five columns', () => {
    expect(matrix.adapters.map((a) => a.adapter)).toEqual([
      'builtin',
      'library',
      'mcp-gateway',
      'claude-code-via-gateway',
      'claude-code-hook',
    ]);
    for (const a of matrix.adapters) expect(Object.keys(a.cells)).toEqual([...MATRIX_COLUMNS]);
  });

  it('gives every cell a one-line, non-empty note and a value of true, false or partial', () => {
    for (const a of honestyMatrix(BARE_LINUX).adapters.concat(matrix.adapters)) {
      for (const column of MATRIX_COLUMNS) {
        const cell = a.cells[column];
        expect([true, false, 'partial'], `${a.adapter}.${column}`).toContain(cell.value);
        expect(cell.note.trim().length, `${a.adapter}.${column}`).toBeGreaterThan(20);
        expect(cell.note, `${a.adapter}.${column}`).not.toMatch(/\n/);
      }
      expect(a.title.length).toBeGreaterThan(0);
      expect(a.basis.length).toBeGreaterThan(0);
    }
  });

  it('lets no adapter claim to see native tools except the Claude Code hook', () => {
    const claiming = matrix.adapters.filter((a) => a.cells.seesNativeTools.value !== false);
    expect(claiming.map((a) => a.adapter)).toEqual(['claude-code-hook']);
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
    expect(hook.cells.observesCompletion.value).toBe(false);
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
      'mcp-gateway': true,
      'claude-code-via-gateway': true,
      'claude-code-hook': true,
    });
    for (const a of matrix.adapters)
      expect(a.available).toBe(
        AVAILABLE_IN_THIS_BUILD[a.adapter as keyof typeof AVAILABLE_IN_THIS_BUILD],
      );
    expect(row('builtin').verifiedWith).toBe('warden 0.1.0');
    expect(row('mcp-gateway').verifiedWith).toBe('mcp 2025-06-18');
    expect(row('mcp-gateway').basis).toContain('`warden gateway` is in this build');
    expect(row('claude-code-via-gateway').basis).toContain('not with a running Claude Code');
    expect(row('claude-code-hook').basis).toContain('recorded Claude Code inputs');
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

  it('on a host without `bwrap`, every adapter is sandbox-uncovered and the host statement says the guard rules are the outermost layer', () => {
    const m = honestyMatrix(BARE_LINUX);
    expect(m.host.sandboxBackend).toBe(false);
    expect(m.host.floorMissing).toBe(true);
    for (const a of m.adapters) {
      expect(a.cells.sandboxCovered.value, a.adapter).toBe(false);
      expect(a.cells.sandboxCovered.note).toContain('no sandbox backend');
    }
    expect(m.host.statement).toContain('the guard rules are the outermost enforcement layer here');
    expect(m.host.statement).toContain('Linux without `bwrap` and `rg` (ripgrep');
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

  it('on a host with `bwrap`, `socat` and `rg`, the built-ins are partly covered (run_command) and every other adapter is not', () => {
    const m = honestyMatrix(SANDBOX_LINUX);
    expect(m.host.sandboxBackend).toBe(true);
    expect(m.host.backend).toBe('bwrap+socat');
    expect(m.host.floorMissing).toBe(true);
    expect(m.host.statement).toContain('offers a sandbox backend');
    expect(m.host.statement).toContain('`/usr/bin/bwrap`');
    expect(m.host.statement).toContain(
      'the built-in `run_command` runs its shell commands under it',
    );
    expect(m.host.statement).toContain('every other tool of every adapter runs outside it');
    expect(m.host.statement).not.toContain('outermost enforcement layer here');
    expect(m.host.statement).not.toBe(honestyMatrix(BARE_LINUX).host.statement);
    for (const a of m.adapters) {
      if (a.adapter === 'builtin') continue;
      expect(a.cells.sandboxCovered.value, a.adapter).toBe(false);
      expect(a.cells.sandboxCovered.note).toContain("this adapter's tools do not run under them");
    }
    const builtin = rowOf(m.adapters, 'builtin').cells.sandboxCovered;
    expect(builtin.value).toBe('partial');
    expect(builtin.note).toContain(
      "`run_command`'s shell commands run under @anthropic-ai/sandbox-runtime",
    );
    // G37: the file tools stay uncovered, and the note says so in the spec's words.
    expect(builtin.note).toContain(
      'the tool surface and this engine are their only file-system boundary',
    );
    expect(builtin.note).toContain('git, `gh` and `http_fetch` run with the full rights');
  });

  it('without `rg` the Linux sandbox runtime cannot start, so the host has no backend (G2)', () => {
    const m = honestyMatrix(NO_RG_LINUX);
    expect(m.host.sandboxBackend).toBe(false);
    expect(m.host.statement).toContain('Linux without `rg` (ripgrep');
    for (const a of m.adapters) expect(a.cells.sandboxCovered.value, a.adapter).toBe(false);
  });

  it('detects this host without being told anything', () => {
    const host = honestyMatrix(detectHost()).host;
    expect(host.platform).toBe(process.platform);
    for (const found of [host.bwrap, host.socat, host.rg])
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
      /yes\s+✗\s+~\s+✗\s+✓\s+✗\s+claude-code 2\.1\.197$/,
    );
    expect(text).not.toContain('(not in this build: specified, not run)');
  });
});

describe('warden doctor (G37): the matrix of the host it runs on', () => {
  it('prints the host, its sandbox backend and every adapter; --json the same data', () => {
    const human = warden(['doctor']);
    expect(human.code).toBe(0);
    const host = honestyMatrix(detectHost()).host;
    expect(human.stdout).toContain(
      `host: ${host.platform}; sandbox backend: ${host.backend ?? 'none'}`,
    );
    for (const a of honestyMatrix(detectHost()).adapters)
      expect(human.stdout).toContain(`${a.adapter} `);
    const json = warden(['doctor', '--json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      host: { backend: string | null };
      adapters: { adapter: string }[];
    };
    expect(parsed.host.backend).toBe(host.backend);
    expect(parsed.adapters.map((a) => a.adapter)).toContain('claude-code-hook');
  });
});
