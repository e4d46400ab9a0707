// `warden agent create|list`: the agents of an instance on disk (inspector.md
// §2), `<data>/agents/<id>/` with AgentSettings.json, Identity.md, Soul.md and
// Workspace/. Roles and tools come from the settings; last activity from the
// audit log, which only Warden writes (I1). The module that reads the folders
// (and the store) loads when a subcommand runs.

import { join, resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { DEFAULT_DATA } from '../../../data-folder.js';
import type { InstanceAgent } from '../../../instance/index.js';
import type { AuditReader } from '../../../store/types.js';
import { collect, dataOptions } from '../../flags.js';
import type { Io } from '../../io.js';
import { printJson, style, usage } from '../../io.js';
import type { Cli, OptionsOf } from '../../registration.js';

function create(agent: CommandUnknownOpts) {
  return dataOptions(
    agent
      .command('create')
      .description('make an agent folder: AgentSettings.json, Identity.md, Soul.md, Workspace/')
      .argument('<id>', 'the agent id (letters, digits, `.`, `_`, `-`)')
      .option('--role <role>', 'what it is for: `coder`, `supervisor`, …')
      .option('--workspace <id>', 'the workspace its audit entries, runs and tasks belong to')
      .option('--name <name>', 'a display name')
      .option('--model <model>', 'the model it runs on')
      .option(
        '--tool <name>',
        'assign a tool, repeatable (a supervisor: the inspector and messages to the human)',
        collect,
      )
      .option(
        '--observe <id>',
        "a supervisor's observable agent, repeatable (default: all)",
        collect,
      ),
  );
}

function list(agent: CommandUnknownOpts) {
  return dataOptions(
    agent
      .command('list')
      .description('the agents with role, tools and last activity (from the audit log)'),
  );
}

export type AgentCreateOptions = OptionsOf<typeof create>;
export type AgentListOptions = OptionsOf<typeof list>;

export function registerAgentFolders(agent: CommandUnknownOpts, cli: Cli): void {
  create(agent).action((id, options) => runAgentCreate(cli.io, id, options));
  list(agent).action((options) => runAgentList(cli.io, options));
}

function dataFolder(options: { data?: string }): string {
  return resolve(options.data ?? DEFAULT_DATA);
}

function toolSettings(options: AgentCreateOptions): Record<string, unknown> | undefined {
  const observe = options.observe ?? [];
  if (options.tool === undefined && observe.length === 0) return undefined;
  const names =
    options.tool ?? (options.role === 'supervisor' ? ['agentInspector', 'messageHuman'] : []);
  const tools: Record<string, unknown> = {};
  for (const name of names) tools[name] = {};
  if (observe.length > 0 || 'agentInspector' in tools)
    tools['agentInspector'] = { observableAgents: [...observe], allowFileAccess: true };
  return tools;
}

export async function runAgentCreate(
  io: Io,
  id: string,
  options: AgentCreateOptions,
): Promise<void> {
  const { agentIdProblem, createAgent, supervisorWarnings } =
    await import('../../../instance/index.js');
  const json = options.json === true;
  const problem = agentIdProblem(id);
  if (problem !== null) usage(io, json, 'id', problem);
  for (const other of options.observe ?? []) {
    const bad = agentIdProblem(other);
    if (bad !== null) usage(io, json, '--observe', bad);
  }
  if ((options.observe ?? []).length > 0 && options.role !== 'supervisor')
    usage(
      io,
      json,
      '--observe',
      'only a supervisor observes other agents: add `--role supervisor`',
    );
  const tools = toolSettings(options);
  let agent: InstanceAgent;
  try {
    agent = await createAgent(dataFolder(options), {
      id,
      ...(options.role === undefined ? {} : { role: options.role }),
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(tools === undefined ? {} : { tools }),
    });
  } catch (error) {
    return usage(io, json, 'id', (error as Error).message);
  }
  const warnings = supervisorWarnings(agent);
  if (json) {
    printJson(io, { ...describe(agent, null), warnings });
    return;
  }
  const s = style(io.color);
  io.out(`${s.green('created')} agent \`${agent.id}\` in ${agent.folder}\n`);
  io.out(`  AgentSettings.json  role ${agent.role ?? '(none)'}; tools ${toolList(agent)}\n`);
  io.out(`  Identity.md, Soul.md  who it is and how it should behave: edit them\n`);
  io.out(`  Workspace/          its work results (the inspector may read them)\n`);
  for (const w of warnings) io.err(`warning: ${w}\n`);
}

function toolList(agent: InstanceAgent): string {
  return agent.tools.length === 0 ? '(none)' : agent.tools.map((t) => `\`${t}\``).join(', ');
}

function describe(agent: InstanceAgent, lastActivity: string | null) {
  return {
    id: agent.id,
    role: agent.role,
    workspace: agent.workspace,
    tools: agent.tools,
    lastActivity,
    folder: agent.folder,
    problems: agent.problems,
  };
}

/** The audit log, when there is one; an instance without a database yet has no activity. */
async function auditOf(
  io: Io,
  data: string,
  json: boolean,
): Promise<{ audit: AuditReader; close: () => Promise<void> } | null> {
  const { openStoreFor, storeExists, storePlace } = await import('../../open.js');
  if (!storeExists(storePlace(io, data))) return null;
  const store = await openStoreFor(io, data, { json });
  return { audit: store.audit, close: () => store.close() };
}

async function lastActivity(audit: AuditReader, agent: InstanceAgent): Promise<string | null> {
  const [newest] = await audit.query({
    agent: agent.id,
    ...(agent.workspace === null ? {} : { workspace: agent.workspace }),
    limit: 1,
  });
  const at = newest?.['occurredAt'];
  return typeof at === 'string' ? at : null;
}

export async function runAgentList(io: Io, options: AgentListOptions): Promise<void> {
  const { listInstanceAgents, supervisorWarnings } = await import('../../../instance/index.js');
  const json = options.json === true;
  const data = dataFolder(options);
  const agents = await listInstanceAgents(data);
  const store = await auditOf(io, data, json);
  const rows: ReturnType<typeof describe>[] = [];
  try {
    for (const agent of agents)
      rows.push(describe(agent, store === null ? null : await lastActivity(store.audit, agent)));
  } finally {
    await store?.close();
  }
  const warnings = agents.flatMap(supervisorWarnings);
  if (json) {
    printJson(io, { agents: rows, warnings });
    return;
  }
  if (rows.length === 0) {
    io.out(`no agents in ${join(data, 'agents')} yet: \`warden agent create ID --role ROLE\`\n`);
    return;
  }
  const s = style(io.color);
  const width = Math.max(2, ...rows.map((r) => r.id.length));
  io.out(`${s.bold(`${'id'.padEnd(width)}  role        last activity             tools`)}\n`);
  for (const [i, row] of rows.entries()) {
    const agent = agents[i];
    if (agent === undefined) continue;
    io.out(
      `${row.id.padEnd(width)}  ${(row.role ?? '-').padEnd(10)}  ${(row.lastActivity ?? 'none').padEnd(24)}  ${toolList(agent)}\n`,
    );
    for (const p of row.problems) io.out(`${' '.repeat(width)}  ${s.red('problem')}: ${p}\n`);
  }
  for (const w of warnings) io.err(`warning: ${w}\n`);
}
