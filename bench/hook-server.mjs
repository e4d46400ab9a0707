// The Warden server the hook bench calls, in a process of its own as an
// operator runs it (in the bench's process it would share an event loop with
// the timing of the calls). Prints one JSON line — the URL and an agent's
// token — when it is ready, and stops when its standard input closes.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToken } from '../packages/warden/dist/tokens.js';
import { configSchema } from '../packages/warden/dist/server/config.js';
import { startServer } from '../packages/warden/dist/server/serve.js';

const [dir, policyJson] = process.argv.slice(2);
const policy = JSON.parse(policyJson);
writeFileSync(join(dir, 'server-policy.json'), policyJson);
const config = configSchema.parse({ data: join(dir, 'server'), port: 0, logLevel: 'silent' });
const running = await startServer(config, { version: 'bench', env: {} });
const put = await running.warden.putPolicy(policy, { author: 'bench' });
if (!put.ok) throw new Error('the bench policy was refused');
const made = await createToken(running.warden.store.tokens, {
  role: 'agent',
  name: 'claude',
  workspace: 'acme',
  agent: 'claude-code',
  by: 'bench',
  at: Date.now(),
});
if (!made.ok) throw new Error('no token');
process.stdout.write(`${JSON.stringify({ url: running.url, token: made.token })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void running.stop().then(() => process.exit(0)));
