// `warden explain` (the what-if check, G38) and `warden check` (the same
// answer as an exit code, for hooks and scripts).

import type { ActionRequest, DecideInput, DecisionResult, Explained } from '@warden/engine';
import {
  checkRequestAgainstPolicy,
  explainDecision,
  parseTimestamp,
  validateRequest,
} from '@warden/engine';
import type { InputIssue } from '../policy/load.js';
import { chooseManaged, loadClassifier, loadPolicyFile, loadRequest } from '../policy/load.js';
import type { Io } from './io.js';
import { EXIT, Exit, fail, printJson, usage } from './io.js';
import { renderDecision } from './render-decision.js';
import type { DecisionOptions } from './commands/decision.js';

/** Reads `--at`; a timestamp without a zone is a usage error (E31). */
export function readAt(io: Io, json: boolean, at: string | undefined): number {
  if (at === undefined) return io.now();
  const parsed = parseTimestamp(at);
  if (typeof parsed === 'number') return parsed;
  return usage(io, json, '--at', parsed.problem);
}

function readApprover(io: Io, json: boolean, approver: string | undefined): boolean {
  if (approver === undefined || approver === 'none') return false;
  if (approver === 'connected') return true;
  return usage(
    io,
    json,
    '--approver',
    `unknown approver \`${approver}\`: use \`connected\` or \`none\``,
  );
}

function requestFromFlags(io: Io, options: DecisionOptions, workspace: string): ActionRequest {
  const json = options.json === true;
  if (options.agent === undefined) {
    return usage(
      io,
      json,
      '--request',
      'give a request with `--request FILE` (or `-` for stdin), or describe one with `--agent` and `--action`/`--command`',
    );
  }
  const raw: Record<string, unknown> = { workspace, agent: options.agent };
  if (options.space !== undefined) raw.space = options.space;
  if (options.mode !== undefined) raw.mode = options.mode;
  if (options.action !== undefined) raw.actions = options.action;
  if (options.command !== undefined) raw.command = options.command;
  if (options.worktree !== undefined) raw.worktree = options.worktree;
  const result = validateRequest(raw);
  if (!result.ok)
    return fail(
      io,
      json,
      result.issues.map((i) => ({ ...i, path: flagFor(i.path) })),
    );
  return result.value;
}

function flagFor(path: string): string {
  if (path.startsWith('actions')) return '--action';
  if (path === '') return '--action';
  return `--${path}`;
}

export function prepareDecision(
  io: Io,
  options: DecisionOptions,
): DecideInput & { readonly policyFile: string } {
  const json = options.json === true;
  const policyFile = options.policy as string; // a required option
  const describedByFlags = [
    options.agent,
    options.space,
    options.mode,
    options.action,
    options.command,
    options.worktree,
  ].some((v) => v !== undefined);
  if (options.request !== undefined && describedByFlags) {
    return usage(
      io,
      json,
      '--request',
      'give the request either with `--request` or with `--agent`/`--action`/`--command`, not both',
    );
  }
  const at = readAt(io, json, options.at);
  const approverConnected = readApprover(io, json, options.approver);
  if (options.request === '-' && policyFile === '-') {
    return usage(io, json, '--request', 'only one of `--policy` and `--request` can read stdin');
  }

  const issues: InputIssue[] = [];
  const policy = loadPolicyFile(policyFile, 'workspace', io.stdin);
  if (!policy.ok) issues.push(...policy.issues);
  const choice = chooseManaged(options.managed, io.env);
  const managed = choice.file === null ? null : loadPolicyFile(choice.file, 'managed', io.stdin);
  if (managed !== null && !managed.ok) {
    const via = choice.source === 'env' ? ' (named by WARDEN_MANAGED_POLICY)' : '';
    issues.push(...managed.issues.map((i) => ({ ...i, message: `${i.message}${via}` })));
  }
  const classifier = loadClassifier(options.classifier, io.stdin);
  if (!classifier.ok) issues.push(...classifier.issues);
  let request: ActionRequest | null = null;
  if (options.request !== undefined) {
    const loaded = loadRequest(options.request, io.stdin);
    if (loaded.ok) request = loaded.value;
    else issues.push(...loaded.issues);
  }
  if (issues.length > 0 || !policy.ok || !classifier.ok) return fail(io, json, issues);
  request ??= requestFromFlags(io, options, policy.value.policy.workspace ?? '');
  const mismatch = checkRequestAgainstPolicy(request, policy.value.policy);
  if (mismatch.length > 0)
    return fail(
      io,
      json,
      mismatch.map((i) => ({ ...i, file: options.request ?? 'request' })),
    );
  return {
    policyFile: policy.value.file,
    policy: policy.value.compiled,
    managed: managed !== null && managed.ok ? managed.value.compiled : null,
    managedSource: choice.source,
    request,
    at,
    approverConnected,
    classifier: classifier.value,
    ...(options.transactional === true ? { transactional: true } : {}),
  };
}

/**
 * The engine's answer to a valid request, or — when the engine fails on it
 * (a request too large or too deeply nested for it: a stack overflow, a limit)
 * — a hard deny that says so: fail-closed, never an exit as if the input were
 * wrong.
 */
function decideOrDeny(input: DecideInput): { explained: Explained | null; result: DecisionResult } {
  try {
    const explained = explainDecision(input);
    return { explained, result: explained.result };
  } catch (error) {
    const cause =
      error instanceof RangeError
        ? 'the request is too large or too deeply nested for it'
        : error instanceof Error
          ? error.message
          : String(error);
    return {
      explained: null,
      result: {
        decision: 'deny',
        outcome: 'deny',
        rule: 'failClosed',
        scope: 'default',
        enforcement: 'hard',
        overridable: false,
        prompts: [],
        facets: [],
        managed: null,
        managedSource: input.managedSource ?? null,
        advisories: [],
        reason: `denied: the engine could not decide this request (${cause}) (Warden fails closed)`,
      },
    };
  }
}

export function runExplain(io: Io, options: DecisionOptions): void {
  const input = prepareDecision(io, options);
  const { explained, result } = decideOrDeny(input);
  if (options.json === true || explained === null) {
    if (options.json === true) printJson(io, result);
    else io.out(`${result.outcome}: ${result.reason}\n`);
  } else io.out(renderDecision(explained, input, io.color));
}

export function exitCodeFor(result: DecisionResult): number {
  return result.outcome === 'allow' ? EXIT.ok : result.outcome === 'ask' ? EXIT.ask : EXIT.deny;
}

export function runCheck(io: Io, options: DecisionOptions): void {
  const input = prepareDecision(io, options);
  const { result } = decideOrDeny(input);
  if (options.json === true) printJson(io, result);
  else io.out(`${result.outcome}: ${result.reason}\n`);
  const code = exitCodeFor(result);
  if (code !== EXIT.ok) throw new Exit(code);
}
