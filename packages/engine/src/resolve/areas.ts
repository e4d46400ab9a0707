// Where outside its worktree a sandboxed command may write (G2): the folders
// the policy's allow rules for `fileWriteOutsideWorktree` name, as far as the
// policy as a whole permits writing anywhere in them. A command's profile
// grants whole folders, so a folder is granted only when no restrictive rule
// of the agent's chain (or of the managed layer) reaches into it, and when a
// write at the folder and at a name inside it both decide `allow`.

import type { CompiledPolicy } from '../compile/compile.js';
import { allRules } from '../model/policy.js';
import type { Rule } from '../model/policy.js';
import { explainDecision } from './decide.js';

export interface AreasInput {
  readonly policy: CompiledPolicy;
  readonly managed?: CompiledPolicy | null;
  readonly workspace: string;
  readonly agent: string;
  readonly space?: string;
  readonly mode?: string;
  /** The current time in epoch milliseconds. */
  readonly at: number;
}

const GLOB = /[*?[\]{}()!+@\\]/;
const CLASSES = new Set(['fileWriteOutsideWorktree', 'fileDelete']);

/** The folder a path glob stays inside: its words before the first glob character. */
export function staticFolder(glob: string): string | null {
  if (!glob.startsWith('/')) return null;
  const cut = glob.search(GLOB);
  const fixed = cut < 0 ? glob : glob.slice(0, cut);
  const slash = fixed.lastIndexOf('/');
  // `/tmp/out/**` stays in `/tmp/out`; `/tmp/out.txt` (no glob) is the file's folder's entry itself.
  const folder = cut < 0 ? fixed.replace(/\/+$/, '') : fixed.slice(0, slash);
  if (folder === '' || folder.split('/').some((part) => part === '..' || part === '.')) return null;
  return folder;
}

function chainScopes(input: AreasInput): Set<string> {
  const scopes = new Set(['workspace', `agent:${input.agent}`]);
  if (input.space !== undefined) scopes.add(`space:${input.space}`);
  if (input.mode !== undefined) scopes.add(`mode:${input.mode}`);
  return scopes;
}

function alive(rule: Rule, at: number): boolean {
  return rule.expiresAtMs === undefined || at < rule.expiresAtMs;
}

function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}/`);
}

/**
 * The absolute folders beyond the worktree a command of this agent may write
 * in, shortest first and none inside another. Empty when the policy names none.
 */
export function writableAreas(input: AreasInput): string[] {
  const scopes = chainScopes(input);
  const mine = allRules(input.policy.policy).filter(
    (r) => scopes.has(r.scope) && alive(r, input.at) && r.action !== undefined,
  );
  const managed =
    input.managed === undefined || input.managed === null
      ? []
      : allRules(input.managed.policy).filter((r) => alive(r, input.at));
  const candidates = new Set<string>();
  for (const rule of mine) {
    if (rule.decision !== 'allow' || rule.action !== 'fileWriteOutsideWorktree') continue;
    for (const glob of rule.when?.paths ?? []) {
      const folder = staticFolder(glob);
      if (folder !== null) candidates.add(folder);
    }
  }
  // A restrictive rule about writing or deleting reaches into a folder when one of its paths could lie there.
  const restrictive = [...mine, ...managed].filter(
    (r) => r.decision !== 'allow' && r.action !== undefined && CLASSES.has(r.action),
  );
  const granted: string[] = [];
  for (const folder of [...candidates].sort((a, b) => a.length - b.length)) {
    if (granted.some((g) => within(folder, g))) continue;
    const blocked = restrictive.some((r) => {
      const paths = r.when?.paths;
      // Unconstrained, or a relative pattern (`**/*.key`) that may match anywhere.
      if (paths === undefined) return true;
      return paths.some((p) => {
        const inner = staticFolder(p);
        return inner === null || within(inner, folder) || within(folder, inner);
      });
    });
    if (blocked) continue;
    const decided = explainDecision({
      policy: input.policy,
      managed: input.managed ?? null,
      request: {
        workspace: input.workspace,
        agent: input.agent,
        ...(input.space === undefined ? {} : { space: input.space }),
        ...(input.mode === undefined ? {} : { mode: input.mode }),
        actions: ['fileWriteOutsideWorktree'],
        args: { paths: [folder, `${folder}/.warden-probe`] },
      },
      at: input.at,
      approverConnected: false,
    });
    if (decided.result.decision === 'allow') granted.push(folder);
  }
  return granted;
}
