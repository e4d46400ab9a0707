// The instance on disk (inspector.md §2): one folder per agent under
// `<data>/agents/<id>/` with `AgentSettings.json`, `Identity.md`, `Soul.md` and
// `Workspace/`. Reading the instance lists the agents with their role and
// assigned tools, each settings problem said; it writes nothing (create.ts does).

import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActionClass } from '@warden/engine';
import { BUILTIN_CLASSES, isBuiltinName } from '../tools/builtin/classes.js';
import type { AgentSettings } from './settings.js';
import { agentIdProblem, parseAgentSettings } from './settings.js';

export const SETTINGS_FILE = 'AgentSettings.json';
export const IDENTITY_FILE = 'Identity.md';
export const SOUL_FILE = 'Soul.md';
export const WORKSPACE_DIR = 'Workspace';

/** `<data>/agents`. */
export function agentsFolder(data: string): string {
  return join(data, 'agents');
}

/** `<data>/agents/<id>`; the id must be valid (see `agentIdProblem`). */
export function agentFolder(data: string, id: string): string {
  const problem = agentIdProblem(id);
  if (problem !== null) throw new RangeError(problem);
  return join(agentsFolder(data), id);
}

/** One agent as its folder describes it. */
export interface InstanceAgent {
  readonly id: string;
  readonly folder: string;
  /** `null` when the settings could not be read; `problems` says why. */
  readonly settings: AgentSettings | null;
  readonly role: string | null;
  readonly workspace: string | null;
  /** The names under `tools` in its settings. */
  readonly tools: readonly string[];
  readonly problems: readonly string[];
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Reads one agent's folder; a missing or bad settings file is a problem, not a throw. */
export async function readAgent(data: string, id: string): Promise<InstanceAgent | null> {
  if (agentIdProblem(id) !== null) return null;
  const folder = join(agentsFolder(data), id);
  if (!(await isFolder(folder))) return null;
  let text: string;
  try {
    text = await readFile(join(folder, SETTINGS_FILE), 'utf8');
  } catch {
    return {
      id,
      folder,
      settings: null,
      role: null,
      workspace: null,
      tools: [],
      problems: [`${SETTINGS_FILE} is missing or unreadable`],
    };
  }
  const parsed = parseAgentSettings(text);
  if (!parsed.ok)
    return {
      id,
      folder,
      settings: null,
      role: null,
      workspace: null,
      tools: [],
      problems: parsed.problems.map((p) => `${SETTINGS_FILE}: ${p}`),
    };
  const s = parsed.value;
  return {
    id,
    folder,
    settings: s,
    role: s.role ?? null,
    workspace: s.workspace ?? null,
    tools: Object.keys(s.tools).sort(),
    problems: [],
  };
}

/** Every agent folder of the instance, by id; folders that cannot name an agent are skipped. */
export async function listInstanceAgents(data: string): Promise<InstanceAgent[]> {
  let names: string[];
  try {
    names = await readdir(agentsFolder(data));
  } catch {
    return [];
  }
  const agents: InstanceAgent[] = [];
  for (const name of names.sort()) {
    const agent = await readAgent(data, name);
    if (agent !== null) agents.push(agent);
  }
  return agents;
}

// ─── What a tool may do: supervisors get none that act (I7) ────────────────

/** Tools that only read or only speak to the human: they declare no action class. */
export const NON_ACTING_TOOLS: Readonly<Record<string, string>> = {
  agentInspector: "reads the other agents' evidence (audit, receipts, tasks, allowlisted files)",
  messageHuman: "writes a message for the human into Warden's store",
  ...Object.fromEntries(
    Object.entries(BUILTIN_CLASSES)
      .filter(([, c]) => c.readOnly)
      .map(([name, c]) => [name, c.summary]),
  ),
};

/** The action classes a configured tool declares; `null` when Warden does not know the tool. */
export function declaredClasses(tool: string): readonly ActionClass[] | null {
  if (Object.hasOwn(NON_ACTING_TOOLS, tool)) return [];
  return isBuiltinName(tool) ? BUILTIN_CLASSES[tool].actions : null;
}

/**
 * Warnings for a supervisor's tools (I7): it reports to a human and does not
 * act, so a tool that declares an action class — or one Warden cannot tell
 * about — is named.
 */
export function supervisorWarnings(agent: InstanceAgent): string[] {
  if (agent.role !== 'supervisor') return [];
  const warnings: string[] = [];
  for (const tool of agent.tools) {
    const classes = declaredClasses(tool);
    if (classes === null)
      warnings.push(
        `supervisor \`${agent.id}\` has tool \`${tool}\`, which Warden does not know: a supervisor should have only \`agentInspector\` and \`messageHuman\``,
      );
    else if (classes.length > 0)
      warnings.push(
        `supervisor \`${agent.id}\` has tool \`${tool}\`, which declares ${classes.map((c) => `\`${c}\``).join(', ')}: a supervisor reports to a human and should not act`,
      );
  }
  return warnings;
}
