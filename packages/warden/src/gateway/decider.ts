// Who decides the gateway's calls and where they are recorded: standalone, the
// library on a policy file with the audit in the local data folder (no
// approver: prompts are denied, G22); connected, a Warden server over its API
// (`POST /v1/decide?wait=0` answers at once, and a prompt held for a human is
// then waited for with `GET /v1/decide/:approvalId`; `POST /v1/audit` reports
// how the call ended). Every failure to get a decision is a deny (fail-closed).
//
// The connected calls use node's own HTTP client, not `fetch`: fetch gives up
// on an answer whose headers take longer than 300 s, and a human may take
// longer than that (the server holds a prompt up to its approval timeout, at
// most an hour). Each request still has a bound of its own, so nothing waits
// forever on a server that stopped answering.

import type { RequestArgs } from '@warden/engine';
import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AuditStatus } from '../store/types.js';
import { illFormedProblem } from '../well-formed.js';
import type { GatewayConfig } from './config.js';
import type { PinCheck, ToolDefinition } from './pins.js';

export interface Ask {
  readonly tool: string;
  readonly actions: readonly string[];
  readonly args: RequestArgs;
  readonly arguments: unknown;
}

export interface Verdict {
  readonly allow: boolean;
  readonly reason: string;
  /** The decision's audit entry, reported against when the call ends; null when none was made. */
  readonly auditId: string | null;
  readonly callId: string | null;
}

export interface Ending {
  readonly tool: string;
  readonly arguments: unknown;
  readonly status: AuditStatus;
  readonly durationMs: number | null;
  readonly error?: string;
}

/** What the caller of `decide` can follow: the agent's cancel, and a wait for a human. */
export interface DecideHooks {
  /** Aborted when the agent cancels the call or goes away: the wait ends as a deny. */
  readonly signal?: AbortSignal;
  /** Called once when the decision waits for a human approval (connected only). */
  readonly waiting?: (approvalId: string) => void;
}

export interface Decider {
  /** `standalone (policy FILE)` or `connected to URL`, for the start line. */
  readonly describe: string;
  decide(ask: Ask, hooks?: DecideHooks): Promise<Verdict>;
  /** Records how a call ended; `verdict` null for a read-only call, which has no decision. */
  complete(verdict: Verdict | null, ending: Ending): Promise<void>;
  /**
   * A downstream tool's definition as listed: pinned the first time, refused
   * (with why) once it differs from the pin until an admin accepts it. Any
   * failure to check is a refusal (fail-closed).
   */
  pin(tool: string, definition: ToolDefinition): Promise<PinCheck>;
  /**
   * The action classes every call of which is a hard deny for this agent now;
   * rejects when Warden cannot say. Decides and records nothing.
   */
  outright(): Promise<ReadonlySet<string>>;
  close(): Promise<void>;
}

export const SOURCE = 'mcp-gateway';

export async function standaloneDecider(
  config: GatewayConfig,
  options: {
    readonly policy: string;
    readonly managed: string | null;
    readonly data: string;
    readonly env: NodeJS.ProcessEnv;
  },
): Promise<Decider | { readonly problems: readonly string[] }> {
  const [{ loadPolicyFile }, { openWarden }, { newId }] = await Promise.all([
    import('../policy/load.js'),
    import('../warden.js'),
    import('../ids.js'),
  ]);
  const loaded = loadPolicyFile(options.policy, 'workspace', () => '');
  if (!loaded.ok)
    return {
      problems: loaded.issues.map(
        (i) => `${options.policy}: ${i.path === '' ? '' : `${i.path}: `}${i.message}`,
      ),
    };
  const workspace = loaded.value.policy.workspace;
  if (workspace !== config.workspace)
    return {
      problems: [
        `${options.policy}: the policy is for workspace \`${String(workspace)}\`, the gateway's configuration says \`${config.workspace}\``,
      ],
    };
  const warden = await openWarden({
    data: options.data,
    policyFile: options.policy,
    managedPolicyFile: options.managed,
    env: options.env,
  });
  const ctx = {
    workspace: config.workspace,
    agent: config.agent,
    source: SOURCE,
    ...(config.space === undefined ? {} : { space: config.space }),
    ...(config.mode === undefined ? {} : { mode: config.mode }),
    ...(config.worktree === undefined ? {} : { worktree: config.worktree }),
  };
  return {
    describe: `standalone (policy ${options.policy}, audit in ${options.data})`,
    async decide(ask) {
      const broken = illFormedProblem(ask.arguments, "the tool's arguments");
      if (broken !== null)
        return { allow: false, reason: `${broken}: denied`, auditId: null, callId: null };
      const decision = await warden.gate.decide(ctx, {
        tool: ask.tool,
        actions: ask.actions,
        args: ask.args,
        arguments: ask.arguments,
      });
      // A decision that could not be recorded is a deny, whatever it says (contracts §8).
      if (decision.auditId === undefined)
        return {
          allow: false,
          reason: notRecorded(decision.failure ?? decision.reason),
          auditId: null,
          callId: decision.callId,
        };
      return {
        allow: decision.outcome === 'allow',
        reason: decision.reason,
        auditId: decision.auditId,
        callId: decision.callId,
      };
    },
    async complete(verdict, ending) {
      await warden.gate.complete(ctx, {
        callId: verdict?.callId ?? newId(),
        decisionId: verdict?.auditId ?? null,
        tool: ending.tool,
        arguments: ending.arguments,
        status: ending.status,
        durationMs: ending.durationMs,
        ...(ending.error === undefined ? {} : { error: ending.error }),
      });
    },
    async pin(tool, definition) {
      try {
        return await warden.seeTool(config.workspace, tool, definition, `gateway:${config.agent}`);
      } catch (error) {
        return {
          ok: false,
          reason: `cannot check the pinned definition of \`${tool}\` (${error instanceof Error ? error.message : String(error)}): refused, fail-closed`,
        };
      }
    },
    async outright() {
      const placement = {
        ...(config.space === undefined ? {} : { space: config.space }),
        ...(config.mode === undefined ? {} : { mode: config.mode }),
      };
      const denied = await warden.outrightDenials(config.workspace, config.agent, placement);
      return new Set(denied.map((d) => d.class));
    },
    close: () => warden.close(),
  };
}

/** The reason for a decision Warden could not record: denied, and saying so. */
function notRecorded(failure: string): string {
  return `Warden could not record this decision, so it is denied: ${failure}`;
}

function errorsOf(answer: unknown): string {
  const errors = (answer as { errors?: { message?: unknown }[] } | null)?.errors
    ?.map((e) => e.message)
    .filter((m): m is string => typeof m === 'string');
  return errors !== undefined && errors.length > 0 ? `: ${errors.join('; ')}` : '';
}

/** A request that does not wait for a human is answered within this long, else the call is denied. */
export const REQUEST_LIMIT_MS = 60_000;
/** The longest a server holds a prompt (`approvalTimeoutSeconds` is at most 3600), with a margin. */
export const APPROVAL_WAIT_LIMIT_MS = (3600 + 60) * 1000;
/** An answer larger than this is not from a Warden server. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

interface Answered {
  readonly status: number;
  readonly json: unknown;
}

/** One JSON request with node's HTTP client: no headers timeout, only `limitMs` and `signal`. */
function jsonRequest(
  url: URL,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: unknown,
  limitMs: number,
  signal: AbortSignal | undefined,
): Promise<Answered> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Answered>((resolve, reject) => {
    const req = send(
      url,
      {
        method,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(payload)),
              }),
        },
        ...(signal === undefined ? {} : { signal }),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error('the answer is larger than 8 MiB'));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          let json: unknown = null;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
          } catch {
            // Reported by the caller, with the status.
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${Math.round(limitMs / 1000)} s`)),
      limitMs,
    );
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(payload);
  });
}

function describeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code !== undefined && code !== 'ABORT_ERR' && code !== 'ECONNRESET'
    ? code
    : error instanceof Error
      ? error.message
      : String(error);
}

/** What one answer of `/v1/decide` comes to: a final verdict, or a prompt still waiting. */
type Read =
  | { readonly final: Verdict }
  | { readonly waiting: string; readonly auditId: string | null; readonly callId: string | null };

function readDecision(answer: Answered): Read {
  const body = answer.json as Record<string, unknown> | null;
  const ids = (b: Record<string, unknown>) => ({
    auditId: typeof b.auditId === 'string' ? b.auditId : null,
    callId: typeof b.callId === 'string' ? b.callId : null,
  });
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
        allow: false,
        reason: notRecorded(body.failure),
        auditId: null,
        callId: typeof body.callId === 'string' ? body.callId : null,
      },
    };
  if (answer.status !== 200 || body === null || typeof body !== 'object' || Array.isArray(body))
    return {
      final: {
        allow: false,
        reason: `the Warden server answered HTTP ${answer.status}${errorsOf(body)}: denied, fail-closed`,
        auditId: null,
        callId: null,
      },
    };
  const reason = typeof body.reason === 'string' ? body.reason : 'no reason given';
  if (body.outcome === 'ask') {
    if (typeof body.approvalId === 'string' && body.approvalId !== '')
      return { waiting: body.approvalId, ...ids(body) };
    return {
      final: {
        allow: false,
        reason: `the decision was \`ask\` without an approval to wait for: ${reason}: denied, fail-closed`,
        ...ids(body),
      },
    };
  }
  return {
    final: {
      allow: body.outcome === 'allow',
      reason:
        body.outcome === 'allow' || body.outcome === 'deny'
          ? reason
          : `the decision was \`${String(body.outcome)}\`, not allow: ${reason}`,
      ...ids(body),
    },
  };
}

export function connectedDecider(
  config: GatewayConfig,
  server: string,
  token: string,
  log: (line: string) => void,
): Decider {
  const base = server.replace(/\/+$/, '');
  const headers = {
    authorization: `Bearer ${token}`,
    'x-warden-adapter': 'mcp-gateway',
  };
  const at = (path: string) => new URL(`${base}${path}`);
  const identity = {
    workspace: config.workspace,
    agent: config.agent,
    ...(config.space === undefined ? {} : { space: config.space }),
    ...(config.mode === undefined ? {} : { mode: config.mode }),
    ...(config.worktree === undefined ? {} : { worktree: config.worktree }),
  };
  const denied = (reason: string): Verdict => ({
    allow: false,
    reason,
    auditId: null,
    callId: null,
  });
  return {
    describe: `connected to ${base}`,
    async decide(ask, hooks = {}) {
      const { signal } = hooks;
      const broken = illFormedProblem(ask.arguments, "the tool's arguments");
      if (broken !== null) return denied(`${broken}: denied`);
      const stopped = () =>
        denied('the agent stopped waiting for the decision (it cancelled the call): denied');
      let read: Read;
      try {
        // Answered at once: a prompt comes back as `ask` with the approval to wait for.
        read = readDecision(
          await jsonRequest(
            at('/v1/decide?wait=0'),
            'POST',
            headers,
            {
              ...identity,
              tool: ask.tool,
              actions: ask.actions,
              args: ask.args,
              arguments: ask.arguments,
            },
            REQUEST_LIMIT_MS,
            signal,
          ),
        );
      } catch (error) {
        if (signal?.aborted === true) return stopped();
        return denied(
          `cannot reach the Warden server at ${base} (${describeFailure(error)}): denied, fail-closed`,
        );
      }
      if ('final' in read) return read.final;
      const first = read;
      const approvalId = first.waiting;
      hooks.waiting?.(approvalId);
      const deadline = Date.now() + APPROVAL_WAIT_LIMIT_MS;
      for (;;) {
        // The server holds this request until a human answers or the approval times out.
        // A server that answers `ask` again (still pending) is asked again.
        const left = deadline - Date.now();
        if (left <= 0)
          return denied(
            `approval \`${approvalId}\` was not decided within ${APPROVAL_WAIT_LIMIT_MS / 1000} s: denied, fail-closed`,
          );
        try {
          read = readDecision(
            await jsonRequest(
              at(`/v1/decide/${encodeURIComponent(approvalId)}`),
              'GET',
              headers,
              undefined,
              left,
              signal,
            ),
          );
        } catch (error) {
          if (signal?.aborted === true) return stopped();
          return denied(
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
          return denied(
            `the Warden server answered approval \`${read.waiting}\` while \`${approvalId}\` was waited for: denied, fail-closed`,
          );
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
    async pin(tool, definition) {
      const refused = (why: string): PinCheck => ({
        ok: false,
        reason: `cannot check the pinned definition of \`${tool}\` (${why}): refused, fail-closed`,
      });
      let answer: Answered;
      try {
        answer = await jsonRequest(
          at('/v1/tool-pins/check'),
          'POST',
          headers,
          { tool, definition },
          REQUEST_LIMIT_MS,
          undefined,
        );
      } catch (error) {
        return refused(`cannot reach the Warden server at ${base}: ${describeFailure(error)}`);
      }
      const body = answer.json as { ok?: unknown; reason?: unknown } | null;
      if (answer.status !== 200 || body === null || typeof body !== 'object')
        return refused(`the Warden server answered HTTP ${answer.status}${errorsOf(body)}`);
      if (body.ok === true) return { ok: true };
      return {
        ok: false,
        reason: typeof body.reason === 'string' ? body.reason : `\`${tool}\` is refused`,
      };
    },
    async complete(verdict, ending) {
      const body = {
        ...(verdict?.auditId == null
          ? { tool: ending.tool, arguments: ending.arguments }
          : { auditId: verdict.auditId }),
        ...(verdict?.callId == null ? {} : { callId: verdict.callId }),
        status: ending.status,
        ...(ending.durationMs === null ? {} : { durationMs: ending.durationMs }),
        ...(ending.error === undefined ? {} : { error: ending.error }),
      };
      try {
        const answer = await jsonRequest(
          at('/v1/audit'),
          'POST',
          headers,
          body,
          REQUEST_LIMIT_MS,
          undefined,
        );
        if (answer.status !== 201)
          log(
            `cannot report \`${ending.tool}\` to the Warden server: HTTP ${answer.status}${errorsOf(answer.json)}`,
          );
      } catch (error) {
        log(`cannot report \`${ending.tool}\` to the Warden server: ${describeFailure(error)}`);
      }
    },
    async outright() {
      const answer = await jsonRequest(
        at('/v1/permissions/outright'),
        'GET',
        headers,
        undefined,
        REQUEST_LIMIT_MS,
        undefined,
      );
      const body = answer.json as { classes?: unknown } | null;
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
    close: () => Promise.resolve(),
  };
}
