// Warden's one path confinement (I5), shared by the agents' file tools and the
// read-only inspector: both configure it, neither re-implements it.

export type { Confinement, ConfinementOptions } from './confinement.js';
export { confinement } from './confinement.js';
export type { PathCode, PathProblem, PathResult, Refusal } from './problem.js';
export { quote } from './problem.js';
export type { LexicalPath } from './lexical.js';
export { checkLexical, MAX_PATH_BYTES, MAX_SEGMENT_BYTES } from './lexical.js';
export type { ConfinedFile } from './read.js';
export { readConfined } from './read.js';
export type { ConfinedListing, EntryType, ListedEntry, ListOptions } from './list.js';
export { DEFAULT_MAX_ENTRIES, listConfined } from './list.js';
export type { WriteOptions, WrittenFile } from './write.js';
export { writeConfined } from './write.js';
export type { TrashedPath, TrashPlace } from './trash.js';
export { trashConfined } from './trash.js';
export {
  AGENT_TRASH,
  agentFolderConfinement,
  allowAgentFolder,
  WORKTREE_TRASH,
  worktreeConfinement,
} from './presets.js';
// Where a path really leads, for tools that must name it before they act.
export type { WalkOptions, Walked } from './resolve.js';
export { MAX_LINK_HOPS, walk } from './resolve.js';
export { linkRefusal } from './problem.js';
