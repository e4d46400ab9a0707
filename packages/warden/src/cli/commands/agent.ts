// `warden agent create|list`: the instance's agent folders; the module that
// reads them (and the audit log) loads when a subcommand runs.
// `warden agent place`: the space and mode it acts in, on a server or in the data folder.
// `warden agent freeze|thaw|frozen`: the kill switch, on a server or in the data folder.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { collect, storeOrServerOptions, DATA_FLAG } from '../flags.js';
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
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--json', 'print JSON');
}

function list(agent: CommandUnknownOpts) {
  return agent
    .command('list')
    .description('the agents with role, tools and last activity (from the audit log)')
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--json', 'print JSON');
}

function freeze(agent: CommandUnknownOpts) {
  return storeOrServerOptions(
    agent
      .command('freeze')
      .description(
        'the kill switch: every call of the agent (or, with --all, of every agent of the workspace) is denied from now on, and its waiting prompts are denied',
      )
      .argument('[id]', 'the agent id (or give --all)')
      .option('--all', 'freeze every agent of the workspace')
      .option('--reason <text>', 'why: shown to the agent in every deny'),
  );
}

function thaw(agent: CommandUnknownOpts) {
  return storeOrServerOptions(
    agent
      .command('thaw')
      .description(
        'end a freeze: the agent’s (or, with --all, the workspace’s) calls are decided by the policy again',
      )
      .argument('[id]', 'the agent id (or give --all)')
      .option('--all', 'thaw the workspace (agents frozen one by one stay frozen)'),
  );
}

function frozen(agent: CommandUnknownOpts) {
  return storeOrServerOptions(
    agent
      .command('frozen')
      .description('the freezes in force: who froze which agent or workspace, when and why'),
  );
}

function place(agent: CommandUnknownOpts) {
  return storeOrServerOptions(
    agent
      .command('place')
      .description(
        'where an agent acts when its token binds none: its space (autonomy) and mode (command net); what is not named stays',
      )
      .argument('<id>', 'the agent id')
      .option('--space <space>', 'the space it acts in')
      .option('--no-space', 'take it out of every space')
      .option('--mode <mode>', 'the mode it acts in')
      .option('--no-mode', 'take it out of every mode'),
  );
}

export type AgentCreateOptions = OptionsOf<typeof create>;
export type AgentPlaceOptions = OptionsOf<typeof place>;
export type AgentFreezeOptions = OptionsOf<typeof freeze>;
export type AgentThawOptions = OptionsOf<typeof thaw>;
export type AgentFrozenOptions = OptionsOf<typeof frozen>;
export type AgentListOptions = OptionsOf<typeof list>;

export function registerAgent(program: CommandUnknownOpts, cli: Cli): void {
  const load = () => import('../agent-command.js');
  const agent = program
    .command('agent')
    .description(
      "the instance's agents on disk (`<data>/agents/<id>/` with settings, Identity, Soul and Workspace), and the kill switch",
    );
  create(agent).action(async (id, options) => (await load()).runAgentCreate(cli.io, id, options));
  list(agent).action(async (options) => (await load()).runAgentList(cli.io, options));
  place(agent).action(async (id, options) =>
    cli.exit(await (await import('../place-command.js')).runPlace(cli.io, id, options)),
  );
  const freezing = () => import('../freeze-command.js');
  freeze(agent).action(async (id, options) =>
    cli.exit(await (await freezing()).runFreeze(cli.io, id, options)),
  );
  thaw(agent).action(async (id, options) =>
    cli.exit(await (await freezing()).runThaw(cli.io, id, options)),
  );
  frozen(agent).action(async (options) =>
    cli.exit(await (await freezing()).runFrozen(cli.io, options)),
  );
}
