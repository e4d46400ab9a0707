// The decider on a Warden server (connected): each question is one request
// of the server's API, made with an agent token. The identity on every
// decision is the token's (the server refuses a body naming another), a
// prompt waits for a human on the server, and every way of not getting an
// answer — the server unreachable, silent past the deadline, answering with
// an error or with something that is not its answer — is a deny that says
// which (fail-closed). A decision is used only once the server recorded it:
// an answer without `auditId` is a deny.

import type { EffectClass, EffectRequests } from '../sandbox/effects.js';
import type { ExecProfile } from '../sandbox/profile.js';
import type { PinCheck } from '../gateway/pins.js';
import { BadAnswer } from '../hook/post.js';
import { illFormedProblem } from '../well-formed.js';
import type { Answer, Transport } from './transport.js';
import type {
  DecideCall,
  Decided,
  Decider,
  EffectsAnswer,
  Placement,
  StartedRun,
} from './types.js';
import { refusal } from './types.js';

/** A request that does not wait for a human is answered within this long. */
export const REQUEST_LIMIT_MS = 60_000;
/** The longest a server holds a prompt (`approvalTimeoutSeconds` is at most 3600), with a margin. */
export const APPROVAL_WAIT_LIMIT_MS = (3600 + 60) * 1000;
/** At most this many paths go in one report of what a command did. */
const PATHS_PER_REPORT = 5_000;

export interface RemoteOptions {
  readonly server: string;
  readonly token: string;
  readonly transport: Transport;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The messages of a problem answer, as `: a; b`, or nothing. */
export function errorsOf(json: unknown): string {
  const errors = (json as { errors?: { message?: unknown }[] } | null)?.errors;
  if (!Array.isArray(errors)) return '';
  const said = errors.map((e) => e.message).filter((m): m is string => typeof m === 'string');
  return said.length === 0 ? '' : `: ${said.join('; ')}`;
}

/** Why a request failed, as a short phrase: an errno where there is one. */
export function describeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code !== undefined && code !== 'ABORT_ERR' && code !== 'ECONNRESET'
    ? code
    : error instanceof Error
      ? error.message
      : String(error);
}

/** What one answer of `/v1/decide` comes to: a final decision, or a prompt still waiting. */
type Read =
  | { readonly final: Decided }
  | { readonly waiting: string; readonly auditId: string | null; readonly callId: string | null };

function readDecision(answer: Answer, server: string, known: string | null = null): Read {
  const body = parse(answer.text) as Record<string, unknown> | null;
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  // The server could not record the decision (503, or a `failure` with no `auditId`): a deny.
  if (
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    typeof body.failure === 'string' &&
    (answer.status === 503 || typeof body.auditId !== 'string')
  )
    return {
      final: {
        ...refusal(
          `the Warden server could not record this decision, so it is denied: ${body.failure}`,
        ),
        callId: str(body.callId),
        answer: body,
      },
    };
  if (answer.status !== 200 || body === null || typeof body !== 'object' || Array.isArray(body))
    return {
      final: refusal(
        `the Warden server answered HTTP ${answer.status}${errorsOf(body)}: denied, fail-closed`,
      ),
    };
  const reason = str(body.reason) ?? 'no reason given';
  // An approval's final answer may leave out the entry its first answer named.
  const auditId = str(body.auditId) ?? known;
  const callId = str(body.callId);
  if (body.outcome === 'ask') {
    const approvalId = str(body.approvalId);
    if (approvalId !== null && approvalId !== '') return { waiting: approvalId, auditId, callId };
    return {
      final: {
        ...refusal(
          `the decision was \`ask\` without an approval to wait for: ${reason}: denied, fail-closed`,
        ),
        callId,
        answer: body,
      },
    };
  }
  if (auditId === null)
    return {
      final: {
        ...refusal(
          `the Warden server at ${server} did not say which record holds this decision, so it is denied: ${reason}`,
        ),
        callId,
        answer: body,
      },
    };
  const allow = body.outcome === 'allow';
  return {
    final: {
      allow,
      reason:
        allow || body.outcome === 'deny'
          ? reason
          : `the decision was \`${String(body.outcome)}\`, not allow: ${reason}`,
      auditId,
      callId,
      grant: allow ? str(body.grant) : null,
      answer: body,
    },
  };
}

export function remoteDecider(options: RemoteOptions): Decider {
  const base = options.server.replace(/\/+$/, '');
  const { transport } = options;
  const headers = (placement: Placement, deadlineAt?: number): Record<string, string> => ({
    authorization: `Bearer ${options.token}`,
    'x-warden-adapter': placement.source,
    // How long this caller waits for a human: the server ends the prompt just before.
    ...(deadlineAt === undefined
      ? {}
      : { 'x-warden-wait': String(Math.max(1, Math.floor((deadlineAt - Date.now()) / 1000))) }),
  });
  const at = (path: string): URL => new URL(`${base}${path}`);
  const unreachable = (error: unknown): string =>
    error instanceof BadAnswer
      ? `the Warden server at ${base} sent ${error.message}: denied, fail-closed`
      : `cannot reach the Warden server at ${base} (${describeFailure(error)}): denied, fail-closed`;
  const post = (
    placement: Placement,
    path: string,
    body: unknown,
    limitMs = REQUEST_LIMIT_MS,
    signal?: AbortSignal,
    deadlineAt?: number,
  ): Promise<Answer> =>
    transport.request(
      'POST',
      at(path),
      headers(placement, deadlineAt),
      JSON.stringify(body),
      limitMs,
      signal,
    );
  const exec: Placement = { source: 'exec' };

  return {
    describe: `connected to ${base}`,
    async decide(call: DecideCall, hooks = {}) {
      const { signal } = hooks;
      const broken = illFormedProblem(call.ask.arguments, "the tool's arguments");
      if (broken !== null) return refusal(`${broken}: denied`);
      const { placement, ask } = call;
      const body = {
        ...(placement.agent === undefined ? {} : { agent: placement.agent }),
        ...(placement.space === undefined ? {} : { space: placement.space }),
        ...(placement.mode === undefined ? {} : { mode: placement.mode }),
        ...(call.worktree === undefined ? {} : { worktree: call.worktree }),
        ...(ask.tool === undefined ? {} : { tool: ask.tool }),
        ...(ask.actions === undefined ? {} : { actions: ask.actions }),
        ...(ask.command === undefined ? {} : { command: ask.command }),
        ...(ask.args === undefined ? {} : { args: ask.args }),
        ...(ask.arguments === undefined ? {} : { arguments: ask.arguments }),
        ...(ask.callId === undefined ? {} : { callId: ask.callId }),
        ...(ask.unsandboxed === true ? { unsandboxed: true } : {}),
        ...(call.grant === true ? { grant: true } : {}),
        ...(call.grant === true && ask.transactional === true ? { transactional: true } : {}),
      };
      const held = hooks.waiting === undefined;
      let read: Read;
      try {
        // Held: the server answers once a human did. Otherwise a prompt comes back at once as
        // `ask` with the approval to wait for.
        read = readDecision(
          await post(
            placement,
            held ? '/v1/decide' : '/v1/decide?wait=0',
            body,
            held ? APPROVAL_WAIT_LIMIT_MS : REQUEST_LIMIT_MS,
            signal,
            hooks.deadlineAt,
          ),
          base,
        );
      } catch (error) {
        // The caller's deadline or cancel: it says what became of the call.
        if (signal?.aborted === true) throw error;
        return refusal(unreachable(error));
      }
      if ('final' in read) return read.final;
      const first = read;
      const approvalId = first.waiting;
      if (held)
        return refusal(
          `the Warden server answered \`ask\` to a request it was to hold: approval \`${approvalId}\` is not waited for: denied, fail-closed`,
        );
      hooks.waiting?.(approvalId);
      const deadline = Date.now() + APPROVAL_WAIT_LIMIT_MS;
      for (;;) {
        // The server holds this request until a human answers or the approval times out; a
        // server that answers `ask` again (still pending) is asked again.
        const left = deadline - Date.now();
        if (left <= 0)
          return refusal(
            `approval \`${approvalId}\` was not decided within ${APPROVAL_WAIT_LIMIT_MS / 1000} s: denied, fail-closed`,
          );
        try {
          read = readDecision(
            await transport.request(
              'GET',
              at(`/v1/decide/${encodeURIComponent(approvalId)}`),
              headers(placement),
              undefined,
              left,
              signal,
            ),
            base,
            first.auditId,
          );
        } catch (error) {
          // The caller's deadline or cancel: it says what became of the call.
          if (signal?.aborted === true) throw error;
          return refusal(
            `lost the Warden server at ${base} while waiting for approval \`${approvalId}\` (${describeFailure(error)}): denied, fail-closed`,
          );
        }
        if ('final' in read)
          return {
            ...read.final,
            auditId: read.final.auditId ?? first.auditId,
            callId: read.final.callId ?? first.callId,
          };
        if (read.waiting !== approvalId)
          return refusal(
            `the Warden server answered approval \`${read.waiting}\` while \`${approvalId}\` was waited for: denied, fail-closed`,
          );
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },

    async complete(placement, verdict, ending) {
      const body = {
        ...(verdict?.auditId == null
          ? { tool: ending.tool, arguments: ending.arguments }
          : { auditId: verdict.auditId }),
        ...(verdict?.callId == null ? {} : { callId: verdict.callId }),
        status: ending.status,
        ...(ending.durationMs === null ? {} : { durationMs: ending.durationMs }),
        ...(ending.error === undefined ? {} : { error: ending.error }),
      };
      let answer: Answer;
      try {
        answer = await post(placement, '/v1/audit', body);
      } catch (error) {
        throw new Error(describeFailure(error));
      }
      if (answer.status !== 201)
        throw new Error(`HTTP ${answer.status}${errorsOf(parse(answer.text))}`);
    },

    async completeHook(placement, report) {
      const answer = await post(placement, '/v1/audit', {
        completes: report.match,
        tool: report.tool,
        status: report.status,
        ...(report.durationMs === undefined ? {} : { durationMs: report.durationMs }),
        ...(report.error === undefined ? {} : { error: report.error }),
        arguments: report.ending,
        input: report.input,
        ...(report.ungated === undefined ? {} : { ungated: report.ungated }),
      });
      // 409: recorded already (a runtime that sends the event twice).
      if (answer.status === 201 || answer.status === 409) return;
      throw new Error(
        `the Warden server answered HTTP ${answer.status}${errorsOf(parse(answer.text))}`,
      );
    },

    async startRun(grant, command, worktree) {
      let answer: Answer;
      try {
        // No deadline of its own beyond the request limit: the server only checks and records.
        answer = await post(exec, '/v1/exec/start', { grant, command, worktree });
      } catch (error) {
        return { ok: false, problem: unreachable(error) };
      }
      const json = parse(answer.text) as { auditId?: unknown; profile?: ExecProfile } | null;
      if (
        answer.status !== 200 ||
        json === null ||
        typeof json.auditId !== 'string' ||
        json.profile === undefined
      )
        return {
          ok: false,
          problem: `the Warden server refused to run this command under its grant (HTTP ${answer.status}${errorsOf(json)}): denied`,
        };
      return { ok: true, run: { auditId: json.auditId, profile: json.profile } };
    },

    async recordRun(run: StartedRun, outcome) {
      const answer = await post(exec, '/v1/audit', { auditId: run.auditId, ...outcome });
      if (answer.status !== 201)
        throw new Error(`the server answered HTTP ${answer.status}${errorsOf(parse(answer.text))}`);
    },

    async decideEffects(run: StartedRun, requests: EffectRequests): Promise<EffectsAnswer> {
      const auditIds: string[] = [];
      for (const batch of effectBatches(requests)) {
        let answer: Answer;
        try {
          answer = await post(
            exec,
            '/v1/exec/effects',
            { auditId: run.auditId, effects: batch },
            APPROVAL_WAIT_LIMIT_MS,
          );
        } catch (error) {
          return {
            outcome: 'deny',
            reason: `cannot reach the Warden server at ${base} (${describeFailure(error)}): what the command did is discarded, fail-closed`,
            auditIds,
          };
        }
        const json = parse(answer.text) as Partial<EffectsAnswer> | null;
        if (answer.status !== 200 || json === null || typeof json.reason !== 'string')
          return {
            outcome: 'deny',
            reason: `the Warden server answered HTTP ${answer.status}${errorsOf(json)}: what the command did is discarded, fail-closed`,
            auditIds,
          };
        auditIds.push(...(json.auditIds ?? []));
        if (json.outcome !== 'allow') return { outcome: 'deny', reason: json.reason, auditIds };
      }
      return { outcome: 'allow', reason: 'what the command did is allowed', auditIds };
    },

    async pin(placement, tool, definition): Promise<PinCheck> {
      const refused = (why: string): PinCheck => ({
        ok: false,
        reason: `cannot check the pinned definition of \`${tool}\` (${why}): refused, fail-closed`,
      });
      let answer: Answer;
      try {
        answer = await post(placement, '/v1/tool-pins/check', { tool, definition });
      } catch (error) {
        return refused(`cannot reach the Warden server at ${base}: ${describeFailure(error)}`);
      }
      const body = parse(answer.text) as { ok?: unknown; reason?: unknown } | null;
      if (answer.status !== 200 || body === null || typeof body !== 'object')
        return refused(`the Warden server answered HTTP ${answer.status}${errorsOf(body)}`);
      if (body.ok === true) return { ok: true };
      return {
        ok: false,
        reason: typeof body.reason === 'string' ? body.reason : `\`${tool}\` is refused`,
      };
    },

    async outright(placement) {
      const answer = await transport.request(
        'GET',
        at('/v1/permissions/outright'),
        headers(placement),
        undefined,
        REQUEST_LIMIT_MS,
        undefined,
      );
      const body = parse(answer.text) as { classes?: unknown } | null;
      if (answer.status !== 200 || body === null || !Array.isArray(body.classes))
        throw new Error(`the Warden server answered HTTP ${answer.status}${errorsOf(body)}`);
      return new Set(
        body.classes.flatMap((c: unknown) =>
          typeof c === 'object' &&
          c !== null &&
          typeof (c as { class?: unknown }).class === 'string'
            ? [(c as { class: string }).class]
            : [],
        ),
      );
    },

    close() {
      transport.close();
      return Promise.resolve();
    },
  };
}

/**
 * The classes effects are reported in, in order (`sandbox/effects.ts` has the
 * same list; it is repeated here so a hook that asks a server loads no engine).
 */
const REPORTED: readonly EffectClass[] = [
  'fileDelete',
  'fileWriteOutsideWorktree',
  'workspaceMutation',
];

/** Effect requests in reports of at most PATHS_PER_REPORT paths, deletions first. */
export function effectBatches(requests: EffectRequests): EffectRequests[] {
  const out: EffectRequests[] = [];
  for (const cls of REPORTED) {
    const effect = requests[cls];
    if (effect === undefined) continue;
    for (let at = 0; at < effect.paths.length; at += PATHS_PER_REPORT) {
      const paths = effect.paths.slice(at, at + PATHS_PER_REPORT);
      out.push(
        cls === 'fileDelete'
          ? { fileDelete: { paths, count: requests.fileDelete?.count ?? null } }
          : { [cls]: { paths } },
      );
    }
  }
  return out;
}
