// `warden agent`: the instance's agents on disk (`create`, `list`), where one
// acts (`place`) and the kill switch (`freeze`, `thaw`, `frozen`), one module
// each, in the order `warden agent --help` lists them.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Cli } from '../../registration.js';
import { registerAgentFolders } from './folders.js';
import { registerAgentFreeze } from './freeze.js';
import { registerAgentPlace } from './place.js';

export function registerAgent(program: CommandUnknownOpts, cli: Cli): void {
  const agent = program
    .command('agent')
    .description(
      "the instance's agents on disk (`<data>/agents/<id>/` with settings, Identity, Soul and Workspace), and the kill switch",
    );
  registerAgentFolders(agent, cli);
  registerAgentPlace(agent, cli);
  registerAgentFreeze(agent, cli);
}
