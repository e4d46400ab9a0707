// Who decides the gateway's calls and where they are recorded: standalone, the
// library on a policy file with the audit in the local data folder (no
// approver: prompts are denied, G22); connected, a Warden server over its API
// (`POST /v1/decide` waits while a human answers; `POST /v1/audit` reports how
// the call ended). Every failure to get a decision is a deny (fail-closed).

import type { RequestArgs } from '@warden/engine';
import type { AuditStatus } from '../store/types.js';
import type { GatewayConfig } from './config.js';

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

export interface Decider {
  /** `standalone (policy FILE)` or `connected to URL`, for the start line. */
  readonly describe: string;
  decide(ask: Ask): Promise<Verdict>;
  /** Records how a call ended; `verdict` null for a read-only call, which has no decision. */
  complete(verdict: Verdict | null, ending: Ending): Promise<void>;
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
      const decision = await warden.gate.decide(ctx, {
        tool: ask.tool,
        actions: ask.actions,
        args: ask.args,
        arguments: ask.arguments,
      });
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
    close: () => warden.close(),
  };
}

function errorsOf(answer: unknown): string {
  const errors = (answer as { errors?: { message?: unknown }[] } | null)?.errors
    ?.map((e) => e.message)
    .filter((m): m is string => typeof m === 'string');
  return errors !== undefined && errors.length > 0 ? `: ${errors.join('; ')}` : '';
}

export function connectedDecider(
  config: GatewayConfig,
  server: string,
  token: string,
  log: (line: string) => void,
): Decider {
  const base = server.replace(/\/+$/, '');
  const post = async (path: string, body: unknown): Promise<{ status: number; json: unknown }> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-warden-adapter': 'mcp-gateway',
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      // Reported by the caller.
    }
    return { status: response.status, json };
  };
  const identity = {
    workspace: config.workspace,
    agent: config.agent,
    ...(config.space === undefined ? {} : { space: config.space }),
    ...(config.mode === undefined ? {} : { mode: config.mode }),
    ...(config.worktree === undefined ? {} : { worktree: config.worktree }),
  };
  return {
    describe: `connected to ${base}`,
    async decide(ask) {
      let answer: { status: number; json: unknown };
      try {
        answer = await post('/v1/decide', {
          ...identity,
          tool: ask.tool,
          actions: ask.actions,
          args: ask.args,
          arguments: ask.arguments,
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        return {
          allow: false,
          reason: `cannot reach the Warden server at ${base} (${cause ?? (error as Error).message}): denied, fail-closed`,
          auditId: null,
          callId: null,
        };
      }
      const body = answer.json as Record<string, unknown> | null;
      if (answer.status !== 200 || body === null || typeof body !== 'object')
        return {
          allow: false,
          reason: `the Warden server answered HTTP ${answer.status}${errorsOf(body)}: denied, fail-closed`,
          auditId: null,
          callId: null,
        };
      const reason = typeof body.reason === 'string' ? body.reason : 'no reason given';
      return {
        allow: body.outcome === 'allow',
        reason:
          body.outcome === 'allow' || body.outcome === 'deny'
            ? reason
            : `the decision was \`${String(body.outcome)}\`, not allow: ${reason}`,
        auditId: typeof body.auditId === 'string' ? body.auditId : null,
        callId: typeof body.callId === 'string' ? body.callId : null,
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
        const answer = await post('/v1/audit', body);
        if (answer.status !== 201)
          log(
            `cannot report \`${ending.tool}\` to the Warden server: HTTP ${answer.status}${errorsOf(answer.json)}`,
          );
      } catch (error) {
        log(`cannot report \`${ending.tool}\` to the Warden server: ${(error as Error).message}`);
      }
    },
    close: () => Promise.resolve(),
  };
}
