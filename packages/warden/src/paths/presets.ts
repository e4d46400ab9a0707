// The two configurations Warden uses, so neither caller writes its own rules:
// an agent folder for the read-only inspector (I3, I6), and a worktree for an
// agent's built-in file tools.

import type { Confinement } from './confinement.js';
import { confinement } from './confinement.js';

/** The inspector's hidden trash inside an agent folder. */
export const AGENT_TRASH: readonly string[] = Object.freeze(['Workspace', '.trash']);
/** The file tools' hidden trash inside a worktree. */
export const WORKTREE_TRASH: readonly string[] = Object.freeze(['.trash']);

/** I3: exactly `Workspace/**`, `Identity.md`, `Soul.md` — an allowlist, not a blocklist. */
export function allowAgentFolder(segments: readonly string[]): boolean {
  const [first] = segments;
  if (first === 'Workspace') return true;
  return segments.length === 1 && (first === 'Identity.md' || first === 'Soul.md');
}

/** An agent folder `<data>/agents/<id>/` as the inspector sees it: read-only (I4). */
export function agentFolderConfinement(agentFolder: string): Promise<Confinement> {
  return confinement({
    root: agentFolder,
    readOnly: true,
    allow: allowAgentFolder,
    hidden: [AGENT_TRASH],
    knownNames: ['Workspace', 'Identity.md', 'Soul.md'],
    allowed: '`Workspace/**`, `Identity.md`, `Soul.md`',
  });
}

/** An agent's worktree as its file tools see it: everything but the trash. */
export function worktreeConfinement(worktree: string): Promise<Confinement> {
  return confinement({ root: worktree, hidden: [WORKTREE_TRASH] });
}
