// `warden gateway` with a stdio downstream that crashes: it is started again at
// the next call to one of its tools (bounded: a backoff after a failed start,
// at most five starts a minute), its tools are listed again, and while it
// cannot start its calls are refused with an `Error` entry. The ratchet (G5)
// holds across the restart: a tool the restarted server newly offers without
// a mapping is neither exposed nor forwarded.

import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/backends.js';
import type { Closable, GatewayFiles } from '../support/gateway-client.js';
import {
  call,
  calls,
  closeAll,
  exported,
  gatewayAgent,
  SDK,
  standalone,
  text,
  writeDownstream,
  writeGateway,
} from '../support/gateway-client.js';

/**
 * A downstream that counts its starts in `starts` (one line each), exits at
 * once while `broken` exists, offers `wipe` too while `grow` exists, no
 * longer offers `crash` while `shrink` exists, and exits on a call to `crash`.
 */
const FLAKY_SERVER = `
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '${SDK}/server/index.js';
import { StdioServerTransport } from '${SDK}/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '${SDK}/types.js';
const dir = process.argv[2];
appendFileSync(join(dir, 'starts'), 'start\\n');
if (existsSync(join(dir, 'broken'))) process.exit(3);
const generation = readFileSync(join(dir, 'starts'), 'utf8').split('\\n').length - 1;
const schema = { type: 'object', properties: {} };
const tools = [
  { name: 'peek', inputSchema: schema },
  ...(existsSync(join(dir, 'shrink')) ? [] : [{ name: 'crash', inputSchema: schema }]),
  ...(existsSync(join(dir, 'grow')) ? [{ name: 'wipe', inputSchema: schema }] : []),
];
const server = new Server({ name: 'flaky', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  if (request.params.name === 'crash') process.exit(7);
  if (request.params.name === 'wipe') writeFileSync(join(dir, 'wiped'), 'yes');
  return { content: [{ type: 'text', text: 'peeked ' + generation }] };
});
await server.connect(new StdioServerTransport());
`;

const POLICY = 'version: 1\nworkspace: acme\nrules: []\n';

type Setup = GatewayFiles;

function setup(): Setup {
  const dir = tempDir('warden-gateway-restart-');
  const script = writeDownstream(dir, 'flaky.mjs', FLAKY_SERVER);
  return writeGateway(dir, POLICY, {
    servers: {
      fx: { command: process.execPath, args: [script, dir], sandbox: { write: [dir] } },
    },
    // Exact names: a glob would map `wipe` when it appears.
    tools: { fx__peek: { readOnly: true }, fx__crash: { actions: ['processSpawn'] } },
  });
}

const open: Closable[] = [];
afterEach(() => closeAll(open));

const agent = (s: Setup) => gatewayAgent(standalone(s), open);

function starts(s: Setup): number {
  return readFileSync(join(s.dir, 'starts'), 'utf8').split('\n').length - 1;
}

function statuses(s: Setup, tool: string): unknown[] {
  return calls(exported(s.data), tool).map((e) => e.status);
}

describe('warden gateway: a crashed stdio downstream', () => {
  it('G5: is started again at the next call and listed again; a new unmapped tool stays refused and is never forwarded', async () => {
    const s = setup();
    const { client, stderr } = await agent(s);
    expect(text(await call(client, 'fx__peek'))).toBe('peeked 1');
    const crashed = await call(client, 'fx__crash');
    expect(crashed.isError).toBe(true);

    // Started again, it now also offers `wipe`, which no mapping covers.
    writeFileSync(join(s.dir, 'grow'), '');
    const again = await call(client, 'fx__peek');
    expect(again.isError, text(again)).not.toBe(true);
    expect(text(again)).toBe('peeked 2');
    expect(starts(s)).toBe(2);
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(['fx__crash', 'fx__peek']);
    const wiped = await call(client, 'fx__wipe');
    expect(wiped.isError).toBe(true);
    expect(text(wiped)).toContain('`fx__wipe` appeared when `fx` started again and has no mapping');
    expect(text(wiped)).toContain('(the ratchet)');
    expect(existsSync(join(s.dir, 'wiped'))).toBe(false);
    expect(stderr()).toMatch(/started `fx` again: 2 tools; refused as not mapped.*`fx__wipe`/);

    expect(statuses(s, 'fx__peek')).toEqual(['Ok', 'Ok']);
    expect(statuses(s, 'fx__crash')).toEqual(['Error']);
    expect(statuses(s, 'fx__wipe')).toEqual(['Denied']);
  }, 60_000);

  it('tells the agent when a restart changed the tools it can call (notifications/tools/list_changed)', async () => {
    const s = setup();
    const { client } = await agent(s);
    expect(client.getServerCapabilities()?.tools).toMatchObject({ listChanged: true });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    expect((await call(client, 'fx__crash')).isError).toBe(true);
    writeFileSync(join(s.dir, 'shrink'), '');
    expect(text(await call(client, 'fx__peek'))).toBe('peeked 2');
    await expect.poll(() => changed).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['fx__peek']);
    const gone = await call(client, 'fx__crash');
    expect(text(gone)).toContain('is no longer offered by `fx` since it started again');
  }, 60_000);

  it('contracts §6: while it cannot start, its calls are refused with an Error entry; the next try waits for the backoff, then it comes back', async () => {
    const s = setup();
    const { client } = await agent(s);
    expect(text(await call(client, 'fx__peek'))).toBe('peeked 1');
    writeFileSync(join(s.dir, 'broken'), '');
    expect((await call(client, 'fx__crash')).isError).toBe(true);

    const refused = await call(client, 'fx__peek');
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /^Warden: the downstream server `fx` closed its connection and cannot be started again \(.*\); the next try is in 1 s$/,
    );
    expect(starts(s)).toBe(2);
    // Within the backoff nothing is started: the call is refused at once.
    const backingOff = await call(client, 'fx__crash');
    expect(backingOff.isError).toBe(true);
    expect(text(backingOff)).toContain('the next try is in');
    expect(starts(s)).toBe(2);

    rmSync(join(s.dir, 'broken'));
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const back = await call(client, 'fx__peek');
    expect(back.isError, text(back)).not.toBe(true);
    expect(text(back)).toBe('peeked 3');
    expect(statuses(s, 'fx__peek')).toEqual(['Ok', 'Error', 'Ok']);
    // The crash that was refused never reached a decision or the server.
    expect(statuses(s, 'fx__crash')).toEqual(['Error', 'Error']);
  }, 60_000);

  it('contracts §6: is started at most five times a minute; after that its calls are refused, saying when it is tried again', async () => {
    const s = setup();
    const { client } = await agent(s);
    for (let i = 0; i < 6; i++) expect((await call(client, 'fx__crash')).isError).toBe(true);
    expect(starts(s)).toBe(6);
    const refused = await call(client, 'fx__peek');
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /closed its connection; it was started again 5 times in the last minute, so the next try is in \d+ s$/,
    );
    expect(starts(s)).toBe(6);
    expect(statuses(s, 'fx__peek')).toEqual(['Error']);
  }, 60_000);
});
