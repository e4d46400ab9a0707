// `warden explain` (the what-if check, G38) and `warden check` (the same
// answer as an exit code, for hooks and scripts), which take the same flags.
// The engine and the policy loader load when one runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionRequest, DecideInput, DecisionResult, Explained } from '@warden/engine';
import type { InputIssue } from '../../policy/load.js';
import { collect } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, Exit, fail, printJson, usage } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';

function decisionOptions(parent: CommandUnknownOpts, name: 'explain' | 'check', about: string) {
  return parent
    .command(name)
    .description(about)
    .requiredOption('--policy <file>', 'the workspace policy (YAML or JSON)')
    .option('--managed <file>', 'a managed policy file; wins over WARDEN_MANAGED_POLICY')
    .option('--request <file>', 'the request (JSON or YAML); `-` reads standard input')
    .option('--agent <id>', 'describe the request with flags instead: the agent')
    .option('--space <id>', 'the space (with --agent)')
    .option('--mode <name>', 'the mode (with --agent)')
    .option('--action <class>', 'an action class, repeatable (with --agent)', collect)
    .option('--command <line>', 'a shell command line (with --agent)')
    .option('--worktree <dir>', 'the absolute worktree root (with --agent)')
    .option(
      '--approver <presence>',
      'whether an approver is connected: `connected` or `none`',
      'none',
    )
    .option(
      '--transactional',
      'the call runs over a copy-on-write layer and is decided on what it does before that lands (as `warden exec` runs it)',
    )
    .option('--at <iso>', 'the time of the decision, with a zone (default: now)')
    .option('--classifier <file>', 'extend the command classifier with this configuration')
    .option('--json', 'print the decision JSON');
}

export type DecisionOptions = OptionsOf<typeof decisionOptions>;

/** What deciding needs beyond the command line, loaded when `explain` or `check` runs. */
async function library() {
  const [engine, load, { rendered }, { readAt }, { renderDecision }, { failClosed, GateFault }] =
    await Promise.all([
      import('@warden/engine'),
      import('../../policy/load.js'),
      import('../../policy/problems.js'),
      import('../read-at.js'),
      import('../render-decision.js'),
      import('../../gate/fault.js'),
    ]);
  const { checkRequestAgainstPolicy, explainDecision, formatPath, validateRequest } = engine;
  const { chooseManaged, loadClassifier, loadPolicyFile, loadRequest } = load;
  return {
    checkRequestAgainstPolicy,
    explainDecision,
    failClosed,
    GateFault,
    formatPath,
    rendered,
    validateRequest,
    chooseManaged,
    loadClassifier,
    loadPolicyFile,
    loadRequest,
    readAt,
    renderDecision,
  };
}

type Library = Awaited<ReturnType<typeof library>>;

export function registerDecision(program: CommandUnknownOpts, cli: Cli): void {
  decisionOptions(
    program,
    'explain',
    'the what-if check: which rule decides a request, and why (exit 0 whenever a decision is printed)',
  ).action((options) => runExplain(cli.io, options));
  decisionOptions(
    program,
    'check',
    'decide a request; the exit code carries the outcome: 0 allow, 3 deny, 4 ask',
  ).action((options) => runCheck(cli.io, options));
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

function requestFromFlags(
  lib: Library,
  io: Io,
  options: DecisionOptions,
  workspace: string,
): ActionRequest {
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
  const result = lib.validateRequest(raw);
  if (!result.ok)
    return fail(
      io,
      json,
      result.issues.map((i) => ({ ...lib.rendered(i), path: flagFor(lib.formatPath(i.path)) })),
    );
  return result.value;
}

function flagFor(path: string): string {
  if (path.startsWith('actions')) return '--action';
  if (path === '') return '--action';
  return `--${path}`;
}

function prepareDecision(
  lib: Library,
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
  const at = lib.readAt(io, json, options.at);
  const approverConnected = readApprover(io, json, options.approver);
  if (options.request === '-' && policyFile === '-') {
    return usage(io, json, '--request', 'only one of `--policy` and `--request` can read stdin');
  }

  const issues: InputIssue[] = [];
  const policy = lib.loadPolicyFile(policyFile, 'workspace', io.stdin);
  if (!policy.ok) issues.push(...policy.issues);
  const choice = lib.chooseManaged(options.managed, io.env);
  const managed =
    choice.file === null ? null : lib.loadPolicyFile(choice.file, 'managed', io.stdin);
  if (managed !== null && !managed.ok) {
    const via = choice.source === 'env' ? ' (named by WARDEN_MANAGED_POLICY)' : '';
    issues.push(...managed.issues.map((i) => ({ ...i, message: `${i.message}${via}` })));
  }
  const classifier = lib.loadClassifier(options.classifier, io.stdin);
  if (!classifier.ok) issues.push(...classifier.issues);
  let request: ActionRequest | null = null;
  if (options.request !== undefined) {
    const loaded = lib.loadRequest(options.request, io.stdin);
    if (loaded.ok) request = loaded.value;
    else issues.push(...loaded.issues);
  }
  if (issues.length > 0 || !policy.ok || !classifier.ok) return fail(io, json, issues);
  request ??= requestFromFlags(lib, io, options, policy.value.policy.workspace ?? '');
  const mismatch = lib.checkRequestAgainstPolicy(request, policy.value.policy);
  if (mismatch.length > 0)
    return fail(
      io,
      json,
      mismatch.map((i) => ({ ...lib.rendered(i), file: options.request ?? 'request' })),
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
function decideOrDeny(
  lib: Library,
  input: DecideInput,
): { explained: Explained | null; result: DecisionResult } {
  try {
    const explained = lib.explainDecision(input);
    return { explained, result: explained.result };
  } catch (error) {
    const cause =
      error instanceof RangeError
        ? 'the request is too large or too deeply nested for it'
        : error instanceof Error
          ? error.message
          : String(error);
    const fault = new lib.GateFault(
      'internal',
      `the engine could not decide this request (${cause})`,
    );
    return { explained: null, result: lib.failClosed(fault, input.managedSource ?? null) };
  }
}

export async function runExplain(io: Io, options: DecisionOptions): Promise<void> {
  const lib = await library();
  const input = prepareDecision(lib, io, options);
  const { explained, result } = decideOrDeny(lib, input);
  if (options.json === true || explained === null) {
    if (options.json === true) printJson(io, result);
    else io.out(`${result.outcome}: ${result.reason}\n`);
  } else io.out(lib.renderDecision(explained, input, io.color));
}

function exitCodeFor(result: DecisionResult): number {
  return result.outcome === 'allow' ? EXIT.ok : result.outcome === 'ask' ? EXIT.ask : EXIT.deny;
}

export async function runCheck(io: Io, options: DecisionOptions): Promise<void> {
  const lib = await library();
  const input = prepareDecision(lib, io, options);
  const { result } = decideOrDeny(lib, input);
  if (options.json === true) printJson(io, result);
  else io.out(`${result.outcome}: ${result.reason}\n`);
  const code = exitCodeFor(result);
  if (code !== EXIT.ok) throw new Exit(code);
}
