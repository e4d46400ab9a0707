// `warden approvals watch|list|answer`: humans answer prompts from a terminal.
// `watch` holds a live approver channel (the server's Server-Sent Events
// stream), which is what makes its holder a connected approver (G22): while it
// runs, prompts wait for an answer; when it stops, they are denied at once.
// Each prompt shows the agent, the tool, the facets that asked, the rule that
// prompted and the arguments, and takes once / N hours in a picked scope /
// deny (G23) — or, for a soft deny, an override with a reason (G26). The
// client that talks to the server loads when a subcommand runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ApprovalView, StandingDenyView } from '../../views/approvals.js';
import type { MeView } from '../../views/meta.js';
import type { Connection } from '../client.js';
import { FlagProblem, connectOptions, numberOption } from '../flags.js';
import type { Io, LineReader, Style } from '../io.js';
import { EXIT, fail, printJson, printListing, style, untilSignalled, usage } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';
import { handler } from '../registration.js';

/** `--hours`: how long a "remember" answer allows. */
function hoursOption(description: string) {
  return numberOption(
    '--hours <n>',
    description,
    (hours) => Number.isFinite(hours) && hours > 0,
    (text) => new FlagProblem('--hours', `\`${text}\` is not a number of hours above 0`),
  );
}

function watch(approvals: CommandUnknownOpts) {
  return connectOptions(
    approvals
      .command('watch')
      .description(
        'be a connected approver: each prompt is shown as it comes, answered once / for N hours / deny',
      )
      .addOption(hoursOption('how long "remember" allows (default 8)'))
      .option(
        '--json',
        'print the stream as JSON lines and ask nothing (answer with `approvals answer`)',
      ),
  );
}

function list(approvals: CommandUnknownOpts) {
  return connectOptions(
    approvals
      .command('list')
      .description('approvals, newest first (pending by default)')
      .option('--state <state>', '`pending`, `approved`, `denied`, `expired`, `cancelled` or `all`')
      .option('--agent <id>', 'only this agent')
      .option('--workspace <id>', 'the workspace (when the token is not bound to one)')
      // Passed on as given: the server checks it.
      .option('--limit <n>', 'at most this many')
      .option('--json', 'print JSON'),
  );
}

function answer(approvals: CommandUnknownOpts) {
  return connectOptions(
    approvals
      .command('answer')
      .description('answer one approval')
      .argument('<id>', 'the approval id')
      .option('--once', 'allow this call once')
      .option('--remember', 'allow it and calls like it for `--hours` in `--scope`')
      .option('--deny', 'refuse it')
      .option('--override', 'override a soft deny (needs `--reason`)')
      .addOption(hoursOption('for `--remember` (default 8)'))
      .option('--scope <scope>', 'for `--remember`: one of the scopes the approval offers')
      .option('--reason <text>', 'why')
      .option('--json', 'print JSON'),
  );
}

export type WatchOptions = OptionsOf<typeof watch>;
export type ListOptions = OptionsOf<typeof list>;
export type AnswerOptions = OptionsOf<typeof answer>;

export function registerApprovals(program: CommandUnknownOpts, cli: Cli): void {
  const approvals = program
    .command('approvals')
    .description('answer the prompts agents are waiting on');
  watch(approvals).action(handler(cli, runWatch));
  list(approvals).action(handler(cli, runList));
  answer(approvals).action(handler(cli, runAnswer));
}

/** The standing denies the offer names across its scopes, each once. */
function standingDenies(view: ApprovalView): StandingDenyView[] {
  const seen = new Map<string, StandingDenyView>();
  for (const scope of view.scopes) {
    if (!scope.effective) continue;
    for (const deny of scope.staysDenied ?? []) seen.set(`${deny.scope} ${deny.rule}`, deny);
  }
  return [...seen.values()];
}

const ANSWERING_ROLES = ['admin', 'approver', 'overrider'];
const DEFAULT_HOURS = 8;
const MAX_ARGUMENT_LINES = 20;

function what(view: ApprovalView): string {
  return view.request.command ?? (view.request.actions ?? []).join(', ');
}

function ruleText(rule: ApprovalView['scopes'][number]['rules'][number]): string {
  const head = rule.command !== undefined ? `command \`${rule.command}\`` : (rule.action ?? '');
  return rule.when === undefined ? head : `${head} when ${JSON.stringify(rule.when)}`;
}

/** Everything a human needs to answer one approval, on one screen. */
export function renderApproval(view: ApprovalView, s: Style, now: number): string {
  const who = [
    `agent ${s.bold(view.agent)}`,
    `workspace ${view.workspace}`,
    view.request.space === undefined ? null : `space ${view.request.space}`,
    view.request.mode === undefined ? null : `mode ${view.request.mode}`,
  ]
    .filter((p) => p !== null)
    .join(', ');
  const seconds = Math.max(0, Math.round((Date.parse(view.expiresAt) - now) / 1000));
  const lines = [
    '',
    s.bold(
      view.kind === 'override'
        ? s.red(`soft deny ${view.id}: override it?`)
        : s.yellow(`approval ${view.id}: allow this?`),
    ),
    `  ${who}`,
    `  tool     ${view.tool ?? '—'}`,
    `  action   ${what(view)}`,
    `  because  ${view.decision.reason}`,
  ];
  if (view.kind === 'prompt') {
    lines.push('  asks about:');
    for (const f of view.facets)
      lines.push(
        `    ${f.facet}  ${s.dim(`rule ${f.rule} in ${f.scope}`)}${f.because === undefined ? '' : `  ${f.because}`}`,
      );
  } else
    lines.push(
      `  denied by rule ${view.decision.rule} in ${view.decision.scope} (soft: overridable with a reason)`,
    );
  const stays = view.kind === 'prompt' && view.rememberable ? standingDenies(view) : [];
  if (stays.length > 0) {
    lines.push('  approving for a while never lifts these standing denies:');
    for (const deny of stays) lines.push(`    ${deny.text}`);
  }
  for (const [key, values] of Object.entries(view.request.args ?? {}))
    lines.push(`  ${key.padEnd(8)} ${Array.isArray(values) ? values.join(', ') : String(values)}`);
  if (view.arguments !== null && view.arguments !== undefined) {
    const args = JSON.stringify(view.arguments, null, 2).split('\n');
    lines.push('  arguments:');
    for (const line of args.slice(0, MAX_ARGUMENT_LINES)) lines.push(`    ${line}`);
    if (args.length > MAX_ARGUMENT_LINES)
      lines.push(s.dim(`    … ${args.length - MAX_ARGUMENT_LINES} more lines`));
  }
  lines.push(s.dim(`  answer within ${seconds} s, or it is denied`));
  return `${lines.join('\n')}\n`;
}

function settledText(view: ApprovalView): string {
  const a = view.answer;
  if (a === null)
    return `${view.state}${view.closedReason === null ? '' : `: ${view.closedReason}`}`;
  const how =
    a.kind === 'once'
      ? 'approved once'
      : a.kind === 'remember'
        ? `approved for ${a.hours ?? '?'} h in ${a.scope ?? '?'}`
        : a.kind === 'override'
          ? 'overridden'
          : 'denied';
  return `${how} by ${a.by}${a.reason === null ? '' : ` (${a.reason})`}`;
}

function isAbort(error: unknown): boolean {
  return (error as Error).name === 'AbortError';
}

async function me(io: Io, conn: Connection, json: boolean): Promise<MeView> {
  const [{ call }, { meView }] = await Promise.all([
    import('../client.js'),
    import('../../views/meta.js'),
  ]);
  return await call(io, conn, 'GET', '/v1/me', { json, schema: meView });
}

/** One conversation about one approval: the answer body to send, `skip`, or null at end of input. */
async function converse(
  io: Io,
  lines: LineReader,
  view: ApprovalView,
  role: string,
  hours: number,
  signal: AbortSignal,
): Promise<Record<string, unknown> | 'skip' | null> {
  const s = style(io.color);
  const mayOverride = role === 'admin' || role === 'overrider';
  const mayApprove = role === 'admin' || role === 'approver';
  if (view.kind === 'override' && !mayOverride) return 'skip';
  if (view.kind === 'prompt' && !mayApprove) return 'skip';
  const scopes = view.scopes.filter((x) => x.effective);
  const remember = view.kind === 'prompt' && view.rememberable && scopes.length > 0;
  const choices =
    view.kind === 'override'
      ? '[v] override with a reason, [d] keep it denied, [s] skip'
      : `[o] once, ${remember ? `[r] remember ${hours} h, ` : ''}[d] deny, [s] skip`;
  if (view.kind === 'prompt' && !remember)
    io.out(
      s.dim(`  only "approve once" is offered: ${view.onlyOnce ?? 'nothing to remember here'}\n`),
    );
  const keys =
    view.kind === 'override' ? ['v', 'd', 's'] : ['o', ...(remember ? ['r'] : []), 'd', 's'];
  for (;;) {
    const line = await lines.choose(`${choices} › `, keys, signal);
    if (line === null) return null;
    const choice = line.trim().toLowerCase();
    if (choice === 's' || choice === 'skip') return 'skip';
    if (choice === 'd' || choice === 'deny') {
      const reason = await lines.ask('reason (optional) › ', signal);
      if (reason === null) return null;
      return { kind: 'deny', ...(reason.trim() === '' ? {} : { reason: reason.trim() }) };
    }
    if (view.kind === 'override' && (choice === 'v' || choice === 'override')) {
      for (;;) {
        const reason = await lines.ask('reason (required) › ', signal);
        if (reason === null) return null;
        if (reason.trim() !== '') return { kind: 'override', reason: reason.trim() };
        io.out('  an override needs a reason\n');
      }
    }
    if (view.kind === 'prompt' && (choice === 'o' || choice === 'once')) return { kind: 'once' };
    if (remember && (choice === 'r' || choice === 'remember')) {
      io.out(`  remember for ${hours} h in which scope?\n`);
      scopes.forEach((x, i) => {
        io.out(`    ${i + 1}) ${s.bold(x.scope)}  ${s.dim(x.rules.map(ruleText).join('; '))}\n`);
        for (const deny of x.staysDenied ?? []) io.out(s.dim(`         ${deny.text}\n`));
      });
      for (;;) {
        const picked = await lines.ask(`scope [1-${scopes.length}, Enter for 1] › `, signal);
        if (picked === null) return null;
        const n = picked.trim() === '' ? 1 : Number(picked.trim());
        const scope = Number.isInteger(n)
          ? scopes[n - 1]
          : scopes.find((x) => x.scope === picked.trim());
        if (scope !== undefined) return { kind: 'remember', hours, scope: scope.scope };
        io.out(`  type a number from 1 to ${scopes.length}\n`);
      }
    }
    io.out(`  type ${choices.replace(/\[(\w)\][^,]*/g, '$1').replace(/, (\w)$/, ' or $1')}\n`);
  }
}

export async function runWatch(io: Io, options: WatchOptions): Promise<number> {
  const [
    { createParser },
    { connection, readAnswer, refused, request, unreachable },
    { approvalView },
  ] = await Promise.all([
    import('eventsource-parser'),
    import('../client.js'),
    import('../../views/approvals.js'),
  ]);
  const json = options.json === true;
  const conn = connection(io, options);
  const hours = options.hours ?? DEFAULT_HOURS;
  const identity = await me(io, conn, json);
  if (!ANSWERING_ROLES.includes(identity.role))
    return usage(
      io,
      json,
      '--token',
      `a \`${identity.role}\` token cannot answer approvals: use an \`approver\`, \`overrider\` or \`admin\` token`,
    );
  const lines = json ? undefined : io.lines?.();
  if (!json && lines === undefined)
    return usage(
      io,
      json,
      '',
      'no terminal to answer on: run `warden approvals watch --json` in scripts',
    );
  const s = style(io.color);
  const stop = new AbortController();
  const { signalled, dispose } = untilSignalled();
  void signalled.then(() => stop.abort());

  const queue = new Map<string, ApprovalView>();
  const skipped = new Set<string>();
  const mine = new Set<string>();
  let current: { id: string; abort: AbortController } | null = null;
  let wake: () => void = () => undefined;
  let failure: number | null = null;

  /** An approval as the stream or an answer sent it; one this CLI cannot read is said and skipped. */
  const shown = (data: unknown): ApprovalView | null => {
    const read = readAnswer(approvalView, data);
    if (read.ok) return read.value;
    io.err(
      `warning: an approval the server sent is not what this CLI reads (${read.problems[0]?.path ?? ''}: ${read.problems[0]?.message ?? ''}): is it another version of Warden?\n`,
    );
    return null;
  };

  const onEvent = (event: string, data: unknown): void => {
    if (json) {
      io.out(`${JSON.stringify({ event, data })}\n`);
      return;
    }
    if (event === 'ready') {
      io.out(
        s.dim(
          `connected to ${conn.url} as ${identity.name} (${identity.role}): prompts now wait for you\n`,
        ),
      );
    } else if (event === 'approval') {
      const view = shown(data);
      if (view === null || skipped.has(view.id) || mine.has(view.id)) return;
      const fresh = !queue.has(view.id);
      queue.set(view.id, view);
      if (fresh && current !== null && current.id !== view.id)
        io.out(s.dim(`\n  (another approval arrived: ${queue.size - 1} waiting after this one)\n`));
      wake();
    } else if (event === 'settled') {
      const view = shown(data);
      if (view === null) return;
      queue.delete(view.id);
      if (current?.id === view.id && !mine.has(view.id)) {
        io.out(`\n  ${s.dim(`${view.id}: ${settledText(view)}`)}\n`);
        current.abort.abort();
      }
    } else if (event === 'revoked') {
      // The server says why: revoked, or expired at a time.
      const why =
        data !== null &&
        typeof data === 'object' &&
        typeof (data as { message?: unknown }).message === 'string'
          ? (data as { message: string }).message
          : 'the token was revoked';
      io.err(`error: ${why}: this terminal is no longer an approver\n`);
      failure = EXIT.usage;
      stop.abort();
    }
  };

  const presenter = async (reader: LineReader): Promise<void> => {
    while (!stop.signal.aborted) {
      const next = [...queue.values()].find((v) => !skipped.has(v.id));
      if (next === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          stop.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        continue;
      }
      const abort = new AbortController();
      const onStop = () => abort.abort();
      stop.signal.addEventListener('abort', onStop, { once: true });
      const expiry = setTimeout(
        () => abort.abort(),
        Math.max(0, Date.parse(next.expiresAt) - io.now()) + 2000,
      );
      current = { id: next.id, abort };
      io.out(renderApproval(next, s, io.now()));
      try {
        const answer = await converse(io, reader, next, identity.role, hours, abort.signal);
        if (answer === null) {
          io.out('\ninput ended: no longer watching\n');
          stop.abort();
        } else if (answer === 'skip') {
          skipped.add(next.id);
          queue.delete(next.id);
          io.out(s.dim('  skipped: left for another approver\n'));
        } else {
          mine.add(next.id);
          const sent = await request(
            io,
            conn,
            'POST',
            `/v1/approvals/${encodeURIComponent(next.id)}/answer`,
            { body: answer },
          );
          queue.delete(next.id);
          if (sent.status >= 200 && sent.status < 300) {
            const view = shown(sent.body);
            io.out(
              view === null
                ? '  answered\n'
                : `  ${view.state === 'approved' ? s.green('✓') : s.red('✗')} ${settledText(view)}\n`,
            );
          } else {
            const message = (sent.body as { errors?: { message: string }[] } | null)?.errors?.[0]
              ?.message;
            io.out(`  ${s.red('not answered')}: ${message ?? `HTTP ${sent.status}`}\n`);
          }
        }
      } catch (error) {
        if (!isAbort(error)) throw error;
        queue.delete(next.id);
        if (!stop.signal.aborted && Date.parse(next.expiresAt) <= io.now())
          io.out(`\n  ${s.dim(`${next.id}: expired before an answer`)}\n`);
      } finally {
        clearTimeout(expiry);
        stop.signal.removeEventListener('abort', onStop);
        current = null;
      }
    }
  };

  const stream = async (): Promise<void> => {
    const backoff = [1000, 2000, 5000, 10_000];
    let attempt = 0;
    while (!stop.signal.aborted) {
      let lost: string;
      try {
        const response = await fetch(`${conn.url}/v1/approvals/stream`, {
          headers: { authorization: `Bearer ${conn.token}`, accept: 'text/event-stream' },
          signal: stop.signal,
        });
        if (response.status === 401 || response.status === 403) {
          const body = (await response.json().catch(() => null)) as unknown;
          try {
            refused(io, json, { status: response.status, body });
          } catch {
            failure = EXIT.usage;
          }
          stop.abort();
          return;
        }
        if (!response.ok || response.body === null)
          throw new Error(`the server answered HTTP ${response.status}`);
        attempt = 0;
        const parser = createParser({
          onEvent: (event) => {
            let data: unknown = event.data;
            try {
              data = JSON.parse(event.data) as unknown;
            } catch {
              // Not JSON: passed on as text.
            }
            onEvent(event.event ?? 'message', data);
          },
        });
        const decoder = new TextDecoder();
        // Reading is cancelled outright on stop: an aborted fetch does not always end a pending read.
        const body = response.body.getReader();
        const cancel = () => void body.cancel().catch(() => undefined);
        stop.signal.addEventListener('abort', cancel, { once: true });
        try {
          for (;;) {
            const chunk = await body.read();
            if (chunk.done) break;
            parser.feed(decoder.decode(chunk.value, { stream: true }));
          }
        } finally {
          stop.signal.removeEventListener('abort', cancel);
        }
        lost = 'the server closed the stream';
      } catch (error) {
        if (stop.signal.aborted) return;
        lost = (error as Error).message.startsWith('the server')
          ? (error as Error).message
          : unreachable(conn.url, error);
      }
      if (stop.signal.aborted) return;
      const delay = backoff[Math.min(attempt, backoff.length - 1)] as number;
      attempt++;
      io.err(
        `warden: ${lost}; reconnecting in ${delay / 1000} s (while no approver is connected, prompts are denied)\n`,
      );
      // Prompts shown from the old connection may have ended meanwhile: they are offered again on reconnect.
      queue.clear();
      current?.abort.abort();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        stop.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    }
  };

  try {
    await Promise.all([stream(), lines === undefined ? Promise.resolve() : presenter(lines)]);
  } finally {
    dispose();
    lines?.close();
  }
  if (failure !== null) return failure;
  if (!json)
    io.out('stopped watching: prompts are denied at once unless another approver is connected\n');
  return EXIT.ok;
}

function query(params: Record<string, string | undefined>): string {
  const entries = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}

export async function runList(io: Io, options: ListOptions): Promise<number> {
  const [{ call, connection }, { approvalListView }] = await Promise.all([
    import('../client.js'),
    import('../../views/approvals.js'),
  ]);
  const json = options.json === true;
  const conn = connection(io, options);
  const state = options.state ?? 'pending';
  const body = await call(
    io,
    conn,
    'GET',
    `/v1/approvals${query({
      workspace: options.workspace,
      state: state === 'all' ? undefined : state,
      agent: options.agent,
      limit: options.limit,
    })}`,
    { json, schema: approvalListView },
  );
  return printListing(io, json, {
    value: body,
    empty: body.approvals.length === 0,
    none: `no ${state === 'all' ? '' : `${state} `}approvals\n`,
    text: (s) =>
      body.approvals
        .map(
          (a) =>
            `${a.id}  ${a.state.padEnd(9)} ${a.kind === 'override' ? 'soft deny' : 'prompt   '}  ${s.bold(a.agent)}  ${a.tool ?? '—'}  ${what(a)}${a.state === 'pending' ? s.dim(`  until ${a.expiresAt}`) : `  ${s.dim(settledText(a))}`}\n`,
        )
        .join(''),
  });
}

export async function runAnswer(io: Io, id: string, options: AnswerOptions): Promise<number> {
  const [{ call, connection }, { approvalView }] = await Promise.all([
    import('../client.js'),
    import('../../views/approvals.js'),
  ]);
  const json = options.json === true;
  const kinds = (['once', 'remember', 'deny', 'override'] as const).filter(
    (k) => options[k] === true,
  );
  if (kinds.length !== 1)
    return usage(
      io,
      json,
      '--once',
      kinds.length === 0
        ? 'say how to answer: `--once`, `--remember`, `--deny` or `--override`'
        : `answer one way, not ${kinds.map((k) => `\`--${k}\``).join(' and ')}`,
    );
  const kind = kinds[0] as (typeof kinds)[number];
  if (kind === 'override' && (options.reason === undefined || options.reason.trim() === ''))
    return usage(io, json, '--reason', 'an override needs a reason: `--reason TEXT`');
  const conn = connection(io, options);
  const path = `/v1/approvals/${encodeURIComponent(id)}`;
  let scope = options.scope;
  const hours = options.hours ?? DEFAULT_HOURS;
  if (kind === 'remember' && scope === undefined) {
    const view = await call(io, conn, 'GET', path, { json, schema: approvalView });
    const effective = view.scopes.filter((x) => x.effective);
    if (effective.length !== 1)
      return fail(io, json, [
        {
          code: 'missing_field' as const,
          path: '--scope',
          message:
            effective.length === 0
              ? `only "approve once" is offered here: ${view.onlyOnce ?? 'nothing to remember'}`
              : `pick a scope with \`--scope\`: ${effective.map((x) => `\`${x.scope}\``).join(', ')}`,
        },
      ]);
    scope = effective[0]?.scope;
  }
  const answered = await call(io, conn, 'POST', `${path}/answer`, {
    json,
    schema: approvalView,
    body: {
      kind,
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      ...(kind === 'remember' ? { hours, scope } : {}),
    },
  });
  if (json) printJson(io, answered);
  else io.out(`${answered.id}: ${settledText(answered)}\n`);
  return EXIT.ok;
}
