// The closed taxonomy of action classes (G5, G6). Growing it is a reasoned code
// change; policy documents cannot invent classes.

import type { Decision } from './decision.js';

export const ACTION_CLASSES = [
  'fileDelete',
  'gitPush',
  'prCreate',
  'prPublish',
  'vendorSyncWrite',
  'fileWriteOutsideWorktree',
  'gitCommit',
  'networkEgress',
  'secretAccess',
  'packageInstall',
  'processSpawn',
  'workspaceMutation',
  'enclosureControl',
] as const;

export type ActionClass = (typeof ACTION_CLASSES)[number];

export interface ActionClassInfo {
  readonly name: ActionClass;
  readonly defaultDecision: Decision;
  /** What the class covers, as a noun phrase ("pushing to a git remote"). */
  readonly covers: string;
}

const INFO: Record<ActionClass, Omit<ActionClassInfo, 'name'>> = {
  fileDelete: { defaultDecision: 'prompt', covers: 'deleting a file' },
  gitPush: { defaultDecision: 'prompt', covers: 'pushing to a git remote' },
  prCreate: { defaultDecision: 'prompt', covers: 'opening a pull request' },
  prPublish: { defaultDecision: 'prompt', covers: 'publishing a review or merging a pull request' },
  vendorSyncWrite: {
    defaultDecision: 'prompt',
    covers: 'writing to an external ticket provider',
  },
  fileWriteOutsideWorktree: {
    defaultDecision: 'allow',
    covers: 'writing a file outside the worktree',
  },
  gitCommit: { defaultDecision: 'allow', covers: 'creating a git commit' },
  networkEgress: { defaultDecision: 'allow', covers: 'network access' },
  secretAccess: { defaultDecision: 'allow', covers: 'reading a secret or credential' },
  packageInstall: { defaultDecision: 'allow', covers: 'installing a package' },
  processSpawn: { defaultDecision: 'allow', covers: 'starting a process' },
  workspaceMutation: {
    defaultDecision: 'allow',
    covers: 'changing workspace structure',
  },
  enclosureControl: { defaultDecision: 'allow', covers: 'controlling an enclosure' },
};

const CLASS_SET: ReadonlySet<string> = new Set(ACTION_CLASSES);

/** Position of each class in the table of the specification (E38 orders by it). */
export const CLASS_ORDER: Readonly<Record<ActionClass, number>> = Object.fromEntries(
  ACTION_CLASSES.map((name, index) => [name, index]),
) as Record<ActionClass, number>;

export function isActionClass(value: unknown): value is ActionClass {
  return typeof value === 'string' && CLASS_SET.has(value);
}

export function classInfo(name: ActionClass): ActionClassInfo {
  return { name, ...INFO[name] };
}

export function defaultDecision(name: ActionClass): Decision {
  return INFO[name].defaultDecision;
}
