// The decider on a policy file (standalone): Warden opened here, on the
// file, the managed layer and a data folder that holds the audit log and the
// key grants are signed with. Nobody can answer a prompt, so a prompt is
// denied (G22). Opened once, it follows edits of the policy file (the gate
// reads it anew when it changes), so a resident process keeps one open.

import { realpathSync } from 'node:fs';
import type { CallContext } from '../gate/types.js';
import type { Warden } from '../warden.js';
import { illFormedProblem } from '../well-formed.js';
import type {
  DecideCall,
  Decided,
  Decider,
  EffectsAnswer,
  Placement,
  StartedRun,
} from './types.js';
import { notRecorded, refusal } from './types.js';

export interface LocalOptions {
  readonly policy: string;
  /** The managed layer's file, or null for none. */
  readonly managed: string | null;
  readonly data: string;
  readonly env: NodeJS.ProcessEnv;
  /** Write the audit log from a thread of its own (a long-lived process); off for one call. */
  readonly auditThread?: boolean;
}

/** The policy file's problems, each with its path inside the file. */
export interface PolicyIssue {
  readonly path: string;
  readonly message: string;
}

export type Opened =
  | { readonly ok: true; readonly decider: LocalDecider; readonly workspace: string }
  | { readonly ok: false; readonly problem: string; readonly issues: readonly PolicyIssue[] };

/** A granted run as the local decider knows it: with the decision's call, agent and workspace. */
interface LocalRun extends StartedRun {
  readonly callId: string;
  readonly workspace: string;
  readonly agent: string;
  readonly tool: string | null;
}

export interface LocalDecider extends Decider {
  /** The workspace the policy file is for. */
  readonly workspace: string;
  /** Warden itself, for what only a standalone caller does (the hook's data-folder check). */
  readonly warden: Warden;
}

/**
 * Opens Warden on the policy file, or says why the file cannot be used
 * (`the policy \`FILE\` cannot be used: …`, or that it names no workspace).
 */
export async function openLocalDecider(options: LocalOptions): Promise<Opened> {
  const [{ loadPolicyFile }, { openWarden }] = await Promise.all([
    import('../policy/load.js'),
    import('../warden.js'),
  ]);
  const loaded = loadPolicyFile(options.policy, 'workspace', () => '');
  if (!loaded.ok)
    return {
      ok: false,
      problem: `the policy \`${options.policy}\` cannot be used: ${loaded.issues.map((i) => `${i.path === '' ? '' : `${i.path}: `}${i.message}`).join('; ')}`,
      issues: loaded.issues,
    };
  const workspace = loaded.value.policy.workspace;
  if (workspace === undefined)
    return {
      ok: false,
      problem: `the policy \`${options.policy}\` names no workspace`,
      issues: [{ path: '', message: 'the policy names no workspace' }],
    };
  const warden = await openWarden({
    data: options.data,
    policyFile: options.policy,
    managedPolicyFile: options.managed,
    env: options.env,
    ...(options.auditThread === undefined ? {} : { auditThread: options.auditThread }),
  });
  return { ok: true, decider: localDecider(warden, workspace, options), workspace };
}

function contextOf(workspace: string, placement: Placement, worktree?: string): CallContext {
  return {
    workspace,
    agent: placement.agent ?? placement.source,
    source: placement.source,
    ...(placement.space === undefined ? {} : { space: placement.space }),
    ...(placement.mode === undefined ? {} : { mode: placement.mode }),
    ...(worktree === undefined ? {} : { worktree }),
  };
}

function localDecider(warden: Warden, workspace: string, options: LocalOptions): LocalDecider {
  const realData = (): string => {
    try {
      return realpathSync(options.data);
    } catch {
      return options.data;
    }
  };
  return {
    describe: `standalone (policy ${options.policy}, audit in ${options.data})`,
    workspace,
    warden,
    async decide(call: DecideCall, hooks = {}): Promise<Decided> {
      const broken = illFormedProblem(call.ask.arguments, "the tool's arguments");
      if (broken !== null) return refusal(`${broken}: denied`);
      const decision = await warden.gate.decide(
        contextOf(workspace, call.placement, call.worktree),
        call.ask,
        {
          ...(hooks.signal === undefined ? {} : { signal: hooks.signal }),
          ...(hooks.deadlineAt === undefined ? {} : { waitMs: hooks.deadlineAt - Date.now() }),
        },
      );
      // A decision that could not be recorded is a deny, whatever it says (contracts §8).
      if (decision.auditId === undefined)
        return {
          ...refusal(notRecorded(decision.failure ?? decision.reason)),
          callId: decision.callId,
          answer: decision,
        };
      let grant: string | null = null;
      if (
        call.grant === true &&
        decision.outcome === 'allow' &&
        call.ask.command !== undefined &&
        call.worktree !== undefined
      ) {
        const { grantKey, issueGrant } = await import('../sandbox/grant.js');
        grant = issueGrant(await grantKey(warden.store.secrets), {
          auditId: decision.auditId,
          command: call.ask.command,
          worktree: call.worktree,
          at: Date.now(),
        });
      }
      return {
        allow: decision.outcome === 'allow',
        reason:
          decision.outcome === 'allow' || decision.outcome === 'deny'
            ? decision.reason
            : `the decision was \`${decision.outcome}\`, not allow: ${decision.reason}`,
        auditId: decision.auditId,
        callId: decision.callId,
        grant,
        answer: decision,
      };
    },
    async complete(placement, verdict, ending) {
      const { newId } = await import('../ids.js');
      await warden.gate.complete(contextOf(workspace, placement), {
        callId: verdict?.callId ?? newId(),
        decisionId: verdict?.auditId ?? null,
        tool: ending.tool,
        arguments: ending.arguments,
        status: ending.status,
        durationMs: ending.durationMs,
        ...(ending.error === undefined ? {} : { error: ending.error }),
      });
    },
    async completeHook(placement, report) {
      const { recordCompletion } = await import('../gate/completion.js');
      await recordCompletion(
        warden.gate,
        warden.store.audit,
        contextOf(workspace, placement),
        {
          match: report.match,
          tool: report.tool,
          status: report.status,
          ending: report.ending,
          input: report.input,
          ...(report.durationMs === undefined ? {} : { durationMs: report.durationMs }),
          ...(report.error === undefined ? {} : { error: report.error }),
          ...(report.ungated === undefined ? {} : { ungated: report.ungated }),
        },
        Date.now(),
      );
    },
    async startRun(grant, command, worktree) {
      const [profiles, { DEFAULT_DENY_READ }] = await Promise.all([
        import('../sandbox/profile.js'),
        import('../sandbox/runtime.js'),
      ]);
      const granted = await profiles.grantedRun(
        {
          secrets: warden.store.secrets,
          audit: warden.store.audit,
          grants: warden.store.grants,
          snapshot: (ws: string) => warden.gate.snapshot(ws),
          // The data folder holds the key grants are signed with: no granted command reads it.
          denyRead: [...DEFAULT_DENY_READ, realData()],
        },
        grant,
        { command, worktree, at: Date.now() },
      );
      if (!granted.ok) return { ok: false, problem: `the grant was refused: ${granted.problem}` };
      await profiles.recordStart(warden.gate, granted.run, command);
      const run: LocalRun = granted.run;
      return { ok: true, run };
    },
    async recordRun(run, outcome) {
      const own = run as LocalRun;
      await warden.gate.complete(
        {
          workspace: own.workspace,
          agent: own.agent,
          source: 'exec',
          worktree: own.profile.worktree,
        },
        { callId: own.callId, decisionId: own.auditId, tool: 'exec', ...outcome },
      );
    },
    async decideEffects(run, requests): Promise<EffectsAnswer> {
      const effects = await import('../gate/effects.js');
      const found = await effects.decidedCall(warden.store.audit, run.auditId);
      if (!found.ok) return { outcome: 'deny', reason: found.problem, auditIds: [] };
      // Standalone nobody answers a prompt: it is denied (G22).
      const decided = await effects.decideEffects(warden.gate, found.call, requests);
      const auditIds = decided.decisions.flatMap((d) =>
        d.auditId === undefined ? [] : [d.auditId],
      );
      return decided.decisions.every((d) => d.auditId !== undefined)
        ? { outcome: decided.outcome, reason: decided.reason, auditIds }
        : {
            outcome: 'deny',
            reason: `Warden could not record the decision on what the command did, so it is discarded: ${decided.reason}`,
            auditIds,
          };
    },
    async pin(placement, tool, definition) {
      try {
        return await warden.seeTool(
          workspace,
          tool,
          definition,
          `gateway:${placement.agent ?? placement.source}`,
        );
      } catch (error) {
        return {
          ok: false,
          reason: `cannot check the pinned definition of \`${tool}\` (${error instanceof Error ? error.message : String(error)}): refused, fail-closed`,
        };
      }
    },
    async outright(placement) {
      const denied = await warden.outrightDenials(workspace, placement.agent ?? placement.source, {
        ...(placement.space === undefined ? {} : { space: placement.space }),
        ...(placement.mode === undefined ? {} : { mode: placement.mode }),
      });
      return new Set(denied.map((d) => d.class));
    },
    close: () => warden.close(),
  };
}

/** A decider that refuses everything with one reason: for a caller that could not open one. */
export function refusingDecider(reason: string): Decider {
  return {
    describe: 'refusing',
    decide: () => Promise.resolve(refusal(reason)),
    complete: () => Promise.reject(new Error(reason)),
    completeHook: () => Promise.reject(new Error(reason)),
    startRun: () => Promise.resolve({ ok: false, problem: reason }),
    recordRun: () => Promise.resolve(),
    decideEffects: () => Promise.resolve({ outcome: 'deny', reason, auditIds: [] }),
    pin: () => Promise.resolve({ ok: false, reason }),
    outright: () => Promise.reject(new Error(reason)),
    close: () => Promise.resolve(),
  };
}
