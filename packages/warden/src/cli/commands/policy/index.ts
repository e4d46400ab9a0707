// `warden policy lint|prove|describe|enumerate|test|apply`: check a policy
// before it bites, and store it; one module per subcommand, in the order
// `warden policy --help` lists them.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Cli } from '../../registration.js';
import { registerPolicyApply } from './apply.js';
import { registerPolicyDescribe } from './describe.js';
import { registerPolicyEnumerate } from './enumerate.js';
import { registerPolicyLint } from './lint.js';
import { registerPolicyProve } from './prove.js';
import { registerPolicyTest } from './test.js';

export function registerPolicy(program: CommandUnknownOpts, cli: Cli): void {
  const policy = program.command('policy').description('check a policy before it bites');
  registerPolicyLint(policy, cli);
  registerPolicyProve(policy, cli);
  registerPolicyDescribe(policy, cli);
  registerPolicyEnumerate(policy, cli);
  registerPolicyTest(policy, cli);
  registerPolicyApply(policy, cli);
}
