// Gate a tool of your own: Warden on its embedded SQLite store (a data folder,
// `./.warden` unless you pass one), the example policy, one tool, three calls.
// Run: node examples/gate-a-tool.mjs [data folder]

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { defineTool, openWarden } from 'warden';

const warden = await openWarden({ data: process.argv[2] ?? '.warden' });
const policy = parse(readFileSync(new URL('./policy.yaml', import.meta.url), 'utf8'));
const stored = await warden.putPolicy(policy, { author: 'example' });
if (!stored.ok) throw new Error(JSON.stringify(stored));

// Who calls, as your agent runtime knows it — never taken from the tool's arguments.
const tools = warden.tools({
  workspace: 'acme',
  agent: 'coder-1',
  space: 'payments',
  source: 'example',
});

tools.register(
  defineTool({
    name: 'push_branch',
    description: 'push a branch of the api repository',
    actions: ['gitPush'], // the classes its calls belong to (a tool without any cannot be registered)
    schema: z.strictObject({ branch: z.string().min(1) }),
    extract: (args) => ({ args: { refs: [args.branch] } }), // what the policy's constraints read
    run: async (args) => `pushed ${args.branch}`, // your real work here
  }),
);

for (const branch of ['feature/login', 'main', 'release/1.2']) {
  const result = await tools.call('push_branch', { branch });
  console.log(result.ok ? `ok      ${result.value}` : `${result.status.padEnd(7)} ${result.error}`);
}

await warden.close();
