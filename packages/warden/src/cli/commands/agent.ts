// `warden agent create|list`: the instance's agent folders; the module that
// reads them (and the audit log) loads when a subcommand runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { collect } from '../flags.js';
import type { Cli, OptionsOf } from '../registration.js';

function create(agent: CommandUnknownOpts) {
  return agent
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
    .option('--observe <id>', "a supervisor's observable agent, repeatable (default: all)", collect)
    .option('--data <dir>', 'the data folder (default `.warden`)')
    .option('--json', 'print JSON');
}

function list(agent: CommandUnknownOpts) {
  return agent
    .command('list')
    .description('the agents with role, tools and last activity (from the audit log)')
    .option(
      '--data <dir>',
      'the data folder (default `.warden`; DATABASE_URL for the audit log on Postgres)',
    )
    .option('--json', 'print JSON');
}

export type AgentCreateOptions = OptionsOf<typeof create>;
export type AgentListOptions = OptionsOf<typeof list>;

export function registerAgent(program: CommandUnknownOpts, cli: Cli): void {
  const load = () => import('../agent-command.js');
  const agent = program
    .command('agent')
    .description(
      "the instance's agents on disk: `<data>/agents/<id>/` with settings, Identity, Soul and Workspace",
    );
  create(agent).action(async (id, options) => (await load()).runAgentCreate(cli.io, id, options));
  list(agent).action(async (options) => (await load()).runAgentList(cli.io, options));
}
