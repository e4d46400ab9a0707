// Who decides the gateway's calls and where they are recorded, through the
// one decider every adapter uses (`decider/`): standalone, Warden on a policy
// file with the audit in the local data folder (no approver: prompts are
// denied, G22); connected, a Warden server over its API (`POST
// /v1/decide?wait=0` answers at once, and a prompt held for a human is then
// waited for with `GET /v1/decide/:approvalId`; `POST /v1/audit` reports how
// the call ended), on keep-alive connections. Every failure to get a decision
// is a deny (fail-closed). This file gives the gateway its view: the
// configuration's identity and worktree on every call.

import type { RequestArgs } from '@warden/engine';
import type { Decider as UnifiedDecider, Placement } from '../decider/types.js';
import { remoteDecider } from '../decider/remote.js';
import { keepAliveTransport } from '../decider/transport.js';
import type { AuditStatus } from '../store/types.js';
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
  /**
   * Connected: a call's result goes back once the server has its record, so
   * what a reviewer reads there is whole when the agent has the result.
   * Standalone, the record is queued in order and the result goes back at once.
   */
  readonly answerAfterRecord: boolean;
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

/** The gateway's identity on every call: its configuration's, never a tool argument (I1). */
function placementOf(config: GatewayConfig): Placement {
  return {
    source: SOURCE,
    agent: config.agent,
    ...(config.space === undefined ? {} : { space: config.space }),
    ...(config.mode === undefined ? {} : { mode: config.mode }),
  };
}

/** The gateway's view of the one decider (`decider/`): its identity and worktree on every call. */
function forGateway(
  decider: UnifiedDecider,
  config: GatewayConfig,
  log: (line: string) => void,
  answerAfterRecord: boolean,
): Decider {
  const placement = placementOf(config);
  return {
    describe: decider.describe,
    answerAfterRecord,
    async decide(ask, hooks = {}) {
      let decided;
      try {
        decided = await decider.decide(
          {
            placement,
            ...(config.worktree === undefined ? {} : { worktree: config.worktree }),
            ask: {
              tool: ask.tool,
              actions: ask.actions,
              args: ask.args,
              arguments: ask.arguments,
            },
          },
          // A prompt is answered at once and its approval waited for here, so the wait can be
          // followed (and ended when the agent cancels).
          { ...hooks, waiting: hooks.waiting ?? (() => undefined) },
        );
      } catch (error) {
        if (hooks.signal?.aborted === true)
          return {
            allow: false,
            reason: 'the agent stopped waiting for the decision (it cancelled the call): denied',
            auditId: null,
            callId: null,
          };
        throw error;
      }
      return {
        allow: decided.allow,
        reason: decided.reason,
        auditId: decided.auditId,
        callId: decided.callId,
      };
    },
    async complete(verdict, ending) {
      try {
        await decider.complete(placement, verdict, ending);
      } catch (error) {
        log(
          `cannot report \`${ending.tool}\` to the Warden server: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    pin: (tool, definition) => decider.pin(placement, tool, definition),
    outright: () => decider.outright(placement),
    close: () => decider.close(),
  };
}

export async function standaloneDecider(
  config: GatewayConfig,
  options: {
    readonly policy: string;
    readonly managed: string | null;
    readonly data: string;
    readonly env: NodeJS.ProcessEnv;
  },
): Promise<Decider | { readonly problems: readonly string[] }> {
  const { openLocalDecider } = await import('../decider/local.js');
  const opened = await openLocalDecider({
    policy: options.policy,
    managed: options.managed,
    data: options.data,
    env: options.env,
  });
  if (!opened.ok)
    return {
      problems: opened.issues.map(
        (i) => `${options.policy}: ${i.path === '' ? '' : `${i.path}: `}${i.message}`,
      ),
    };
  if (opened.workspace !== config.workspace) {
    await opened.decider.close();
    return {
      problems: [
        `${options.policy}: the policy is for workspace \`${opened.workspace}\`, the gateway's configuration says \`${config.workspace}\``,
      ],
    };
  }
  // Standalone, a failure to record is the gate's own: it denies, and there is no server to log.
  return forGateway(opened.decider, config, () => undefined, false);
}

export function connectedDecider(
  config: GatewayConfig,
  server: string,
  token: string,
  log: (line: string) => void,
): Decider {
  return forGateway(
    remoteDecider({ server, token, transport: keepAliveTransport() }),
    config,
    log,
    true,
  );
}
