// The `warden` command line (contracts §4): verbs, options, exit codes.

import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import type { ApprovalsOptions } from './approvals-command.js';
import type { AuditOptions } from './audit-command.js';
import type { ApplyOptions } from './policy-apply-command.js';
import type { ServeOptions } from './serve-command.js';
import type { GatewayOptions } from './gateway-command.js';
import type { TemplatesOptions } from './templates-command.js';
import type { HookInstallOptions } from './hook-install-command.js';
import type { HookOptions } from '../hook/run.js';
import type { ExecOptions } from './exec-command.js';
import type { DoctorOptions } from './doctor-command.js';
import type { TokenOptions } from './token-command.js';
import type { AgentCreateOptions, AgentListOptions } from './agent-command.js';
import type { InspectorCommandOptions } from './inspector-command.js';
import type { ReportOptions } from './report-command.js';
import { runClassifier } from './classifier-command.js';
import { runCheck, runExplain } from './decision-command.js';
import type { DecisionOptions } from './decision-command.js';
import type { Io } from './io.js';
import { EXIT, Exit, processIo, usage } from './io.js';
import { runDescribe, runEnumerate, runLint } from './policy-command.js';

/** The version of the installed package, read from its manifest (one place to change it). */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;

/** Commands that open a store load it only when they run: other commands start without it. */
const auditCommands = () => import('./audit-command.js');
const serveCommand = () => import('./serve-command.js');
const tokenCommands = () => import('./token-command.js');
const applyCommand = () => import('./policy-apply-command.js');
const approvalCommands = () => import('./approvals-command.js');
const templateCommands = () => import('./templates-command.js');
const hookRunner = () => import('../hook/run.js');
const gatewayCommand = () => import('./gateway-command.js');
const hookInstall = () => import('./hook-install-command.js');

function connectOptions(command: Command): Command {
  return command
    .option('--server <url>', 'the Warden server (default: WARDEN_URL)')
    .option('--token <token>', 'a token for it (default: WARDEN_TOKEN)');
}

/** The two adapter modes (contracts §4): connected to a server, or standalone on a policy file. */
function adapterOptions(command: Command): Command {
  return command
    .option(
      '--server <url>',
      'connected: the Warden server decides (default: WARDEN_URL; token: WARDEN_TOKEN)',
    )
    .option('--token <token>', 'an `agent` token (default: WARDEN_TOKEN)')
    .option('--policy <file>', 'standalone: decide from this policy file (prompts are denied)')
    .option(
      '--managed <file>',
      'standalone: a managed policy file (default: WARDEN_MANAGED_POLICY)',
    )
    .option('--data <dir>', 'standalone: where the audit log is written (default `.warden`)');
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function decisionOptions(command: Command): Command {
  return command
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
    .option('--at <iso>', 'the time of the decision, with a zone (default: now)')
    .option('--classifier <file>', 'extend the command classifier with this configuration')
    .option('--json', 'print the decision JSON');
}

export function buildProgram(io: Io, jsonMode: boolean): Command {
  const program = new Command();
  program
    .name('warden')
    .description('Warden decides whether an AI agent may act: allow, ask a human, or deny.')
    .version(VERSION)
    .showHelpAfterError(jsonMode ? false : '(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      // With --json the error goes to standard output as `{ "errors": [...] }` instead.
      outputError: (text, write) => {
        if (!jsonMode) write(`${styleMessage(text.trimEnd())}\n`);
      },
    })
    .exitOverride();

  const exitWith = (code: number): void => {
    if (code !== EXIT.ok) throw new Exit(code);
  };

  decisionOptions(
    program
      .command('explain')
      .description(
        'the what-if check: which rule decides a request, and why (exit 0 whenever a decision is printed)',
      ),
  ).action((options: DecisionOptions) => runExplain(io, options));

  decisionOptions(
    program
      .command('check')
      .description('decide a request; the exit code carries the outcome: 0 allow, 3 deny, 4 ask'),
  ).action((options: DecisionOptions) => runCheck(io, options));

  const policy = program.command('policy').description('check a policy before it bites');
  policy
    .command('lint')
    .description('validate a policy, list every problem, warn about rules that never decide')
    .argument(
      '<file>',
      'the policy (YAML or JSON; a document without `workspace` is a managed policy)',
    )
    .option('--at <iso>', 'judge expiry at this time (default: now)')
    .option('--json', 'print JSON')
    .action((file: string, options: { json?: boolean; at?: string }) => runLint(io, file, options));
  policy
    .command('describe')
    .description('every rule as a sentence')
    .argument('<file>', 'the policy')
    .option('--json', 'print JSON')
    .action((file: string, options: { json?: boolean }) => runDescribe(io, file, options));
  policy
    .command('enumerate')
    .description('what an agent may do, per action class, with the exceptions')
    .argument('<file>', 'the workspace policy')
    .option('--agent <id>', 'the agent (required)')
    .option('--space <id>', 'the space it works in')
    .option('--mode <name>', 'the mode it runs in')
    .option('--managed <file>', 'a managed policy file; wins over WARDEN_MANAGED_POLICY')
    .option('--at <iso>', 'judge expiry at this time (default: now)')
    .option('--json', 'print JSON')
    .action((file: string, options: Record<string, string | boolean | undefined>) =>
      runEnumerate(io, file, options),
    );

  connectOptions(
    policy
      .command('apply')
      .description(
        'store a policy as the next revision: on a server (`--server`, admin token) or in the data folder',
      )
      .argument('<file>', 'the policy (a document without `workspace` is the managed layer)')
      .option('--data <dir>', 'the data folder (default `.warden`; DATABASE_URL for Postgres)')
      .option('--message <text>', 'say why, for the revision history'),
  )
    .option('--json', 'print JSON')
    .action(async (file: string, options: ApplyOptions) =>
      exitWith(await (await applyCommand()).runApply(io, file, options)),
    );

  const templates = program
    .command('templates')
    .description('the shipped policy templates: named sets of rules to add to a workspace policy');
  templates
    .command('list')
    .description('the templates: names, titles and the parameters they take')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) =>
      exitWith((await templateCommands()).runTemplatesList(io, options)),
    );
  templates
    .command('show')
    .description('what one template does, and its parameters')
    .argument('<name>', 'the template')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) =>
      exitWith((await templateCommands()).runTemplatesShow(io, name, options)),
    );
  connectOptions(
    templates
      .command('apply')
      .description(
        "add a template's rules to a workspace policy as the next revision: on a server (`--server`, admin token) or in the data folder",
      )
      .argument('<name>', 'the template')
      .option('--param <key=value>', 'a parameter; repeat it for each value of a list', collect)
      .option('--workspace <id>', 'the workspace (needed when several have a policy)')
      .option('--data <dir>', 'the data folder (default `.warden`; DATABASE_URL for Postgres)')
      .option('--message <text>', 'say why, for the revision history (default: `template NAME`)'),
  )
    .option('--json', 'print JSON')
    .action(async (name: string, options: TemplatesOptions) =>
      exitWith(await (await templateCommands()).runTemplatesApply(io, name, options)),
    );

  program
    .command('serve')
    .description(
      'the Warden server: SQLite in `--data` by default, Postgres with DATABASE_URL; binds 127.0.0.1 unless told otherwise',
    )
    .option('--data <dir>', 'the data folder (default `.warden`)')
    .option('--port <n>', 'the port (default 8787; 0 picks a free one)')
    .option('--host <host>', 'the address to listen on (default 127.0.0.1)')
    .option('--config <file>', 'a configuration file (YAML or JSON); env and flags override it')
    .option('--json', 'print the banner as one JSON line')
    .action(async (options: ServeOptions) =>
      exitWith(await (await serveCommand()).runServe(io, options, VERSION)),
    );

  adapterOptions(
    program
      .command('gateway')
      .description(
        'the MCP gateway: one MCP server to the agent in front of downstream MCP servers, every call through the gate',
      ),
  )
    .option('--config <file>', 'the gateway configuration (YAML or JSON)')
    .option('--http <port>', 'serve Streamable HTTP on 127.0.0.1 at this port instead of stdio')
    .option(
      '--allow-host <name>',
      'with --http: also accept this Host name (a reverse proxy), repeatable; only loopback names pass otherwise',
      collect,
    )
    .option('--timeout <seconds>', 'a downstream call that takes longer fails (default 60)')
    .action(async (options: GatewayOptions) =>
      exitWith(await (await gatewayCommand()).runGateway(io, options, VERSION)),
    );

  const token = program
    .command('token')
    .description("API tokens for people and for agents' adapters (shown once, kept as a hash)");
  const storeOption = (command: Command) =>
    command
      .option('--data <dir>', 'the data folder (default `.warden`; DATABASE_URL for Postgres)')
      .option('--json', 'print JSON');
  storeOption(
    token
      .command('create')
      .description('make a token and print it once')
      .option('--role <role>', '`admin`, `approver`, `overrider`, `viewer` or `agent`')
      .option('--name <name>', 'who or what holds it')
      .option('--workspace <id>', 'bind it to one workspace (required for `agent`)')
      .option('--agent <id>', 'the agent an `agent` token is')
      .option('--space <id>', 'bind an `agent` token to a space')
      .option('--mode <name>', 'bind an `agent` token to a mode'),
  ).action(async (options: TokenOptions) =>
    exitWith(await (await tokenCommands()).runTokenCreate(io, options)),
  );
  storeOption(
    token
      .command('list')
      .description('the tokens: names, roles and bindings, never the secrets')
      .option('--all', 'include revoked tokens'),
  ).action(async (options: TokenOptions) =>
    exitWith(await (await tokenCommands()).runTokenList(io, options)),
  );
  storeOption(
    token
      .command('revoke')
      .description('revoke a token (servers refuse it within a second)')
      .argument('<id>', 'the token id (or its name, when only one live token has it)'),
  ).action(async (id: string, options: TokenOptions) =>
    exitWith(await (await tokenCommands()).runTokenRevoke(io, id, options)),
  );

  const agent = program
    .command('agent')
    .description(
      "the instance's agents on disk: `<data>/agents/<id>/` with settings, Identity, Soul and Workspace",
    );
  agent
    .command('create')
    .description('make an agent folder: AgentSettings.json, Identity.md, Soul.md, Workspace/')
    .argument('<id>', 'the agent id (letters, digits, `.`, `_`, `-`)')
    .option('--role <role>', 'what it is for: `coder`, `supervisor`, …')
    .option('--workspace <id>', 'the workspace its audit entries, runs and tasks belong to')
    .option('--name <name>', 'a display name')
    .option('--model <model>', 'the model it runs on')
    .option(
      '--tool <name>',
      'assign a tool, repeatable (a supervisor: the inspector and messages to the human)',
      collect,
    )
    .option('--observe <id>', "a supervisor's observable agent, repeatable (default: all)", collect)
    .option('--data <dir>', 'the data folder (default `.warden`)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: AgentCreateOptions) =>
      (await import('./agent-command.js')).runAgentCreate(io, id, options),
    );
  agent
    .command('list')
    .description('the agents with role, tools and last activity (from the audit log)')
    .option(
      '--data <dir>',
      'the data folder (default `.warden`; DATABASE_URL for the audit log on Postgres)',
    )
    .option('--json', 'print JSON')
    .action(async (options: AgentListOptions) =>
      (await import('./agent-command.js')).runAgentList(io, options),
    );

  program
    .command('inspector')
    .description(
      "the AgentInspector: a supervisor's read-only MCP server on stdio (audit, receipts, tasks, allowlisted files)",
    )
    .option(
      '--data <dir>',
      'the data folder with `agents/` (default `.warden`; DATABASE_URL for the store on Postgres)',
    )
    .option(
      '--as <agentId>',
      'the supervisor it answers for (its settings: `tools.agentInspector`)',
    )
    .option(
      '--server <url>',
      "connected: the server's inspector (default WARDEN_URL when `--data` is not given)",
    )
    .option('--token <token>', "with --server: the supervisor's agent token (default WARDEN_TOKEN)")
    .action(async (options: InspectorCommandOptions) =>
      exitWith(await (await import('./inspector-command.js')).runInspector(io, options, VERSION)),
    );

  program
    .command('report')
    .description(
      'the deterministic supervisor report (I11): findings from the audit log, receipts and tasks of the agents a supervisor may observe — never from files',
    )
    .option('--supervisor <id>', 'the supervisor (default: the only one in the data folder)')
    .option('--since <window>', 'the window: `24h`, `7d`, `30m` or an ISO time (default 24h)')
    .option(
      '--data <dir>',
      'the data folder (default `.warden`; DATABASE_URL for the store on Postgres)',
    )
    .option(
      '--config <file>',
      "the server's configuration: its `reports` settings and where the data is",
    )
    .option('--store', 'also store it for the human (`GET /v1/reports`)')
    .option('--json', 'print JSON')
    .action(async (options: ReportOptions) =>
      exitWith(await (await import('./report-command.js')).runReport(io, options, VERSION)),
    );

  const approvals = program
    .command('approvals')
    .description('answer the prompts agents are waiting on');
  connectOptions(
    approvals
      .command('watch')
      .description(
        'be a connected approver: each prompt is shown as it comes, answered once / for N hours / deny',
      )
      .option('--hours <n>', 'how long "remember" allows (default 8)')
      .option(
        '--json',
        'print the stream as JSON lines and ask nothing (answer with `approvals answer`)',
      ),
  ).action(async (options: ApprovalsOptions) =>
    exitWith(await (await approvalCommands()).runWatch(io, options)),
  );
  connectOptions(
    approvals
      .command('list')
      .description('approvals, newest first (pending by default)')
      .option('--state <state>', '`pending`, `approved`, `denied`, `expired`, `cancelled` or `all`')
      .option('--agent <id>', 'only this agent')
      .option('--workspace <id>', 'the workspace (when the token is not bound to one)')
      .option('--limit <n>', 'at most this many')
      .option('--json', 'print JSON'),
  ).action(async (options: ApprovalsOptions) =>
    exitWith(await (await approvalCommands()).runList(io, options)),
  );
  connectOptions(
    approvals
      .command('answer')
      .description('answer one approval')
      .argument('<id>', 'the approval id')
      .option('--once', 'allow this call once')
      .option('--remember', 'allow it and calls like it for `--hours` in `--scope`')
      .option('--deny', 'refuse it')
      .option('--override', 'override a soft deny (needs `--reason`)')
      .option('--hours <n>', 'for `--remember` (default 8)')
      .option('--scope <scope>', 'for `--remember`: one of the scopes the approval offers')
      .option('--reason <text>', 'why')
      .option('--json', 'print JSON'),
  ).action(async (id: string, options: ApprovalsOptions) =>
    exitWith(await (await approvalCommands()).runAnswer(io, id, options)),
  );

  const hook = program
    .command('hook')
    .description("answer an agent runtime's hook: Claude Code asks Warden before every tool call");
  adapterOptions(
    hook
      .command('claude-code')
      .description(
        "Claude Code's `PreToolUse` hook: reads its JSON on standard input, prints allow or deny; every failure is a deny",
      ),
  )
    .option(
      '--agent <id>',
      "the agent id (standalone default `claude-code`; connected: the token's)",
    )
    .option('--space <id>', 'the space')
    .option('--mode <name>', 'the mode')
    .option(
      '--gateway <name>',
      "the MCP server name of Warden's gateway in Claude Code, whose tools it decides (default `warden`)",
    )
    .option(
      '--gateway-config <file>',
      'map `mcp__<server>__<tool>` of MCP servers Claude Code reaches directly with this gateway configuration',
    )
    .option('--timeout <seconds>', 'answer within this long, else deny (default 55)')
    .option(
      '--sandbox <mode>',
      'allowed `Bash` commands: `auto` run under the sandbox where the host has a backend (default), `required` deny them where it has none, `off` run them as they are',
    )
    .action(async (options: HookOptions) => {
      const { runHook } = await hookRunner();
      exitWith(
        await runHook(
          { stdin: () => Promise.resolve(io.stdin()), out: (text) => io.out(text), env: io.env },
          options,
        ),
      );
    });
  adapterOptions(
    program
      .command('exec')
      .description(
        "ask the gate whether a shell command may run, and run it under the OS sandbox: exit 3 when denied, else the command's exit code",
      )
      .argument('[command...]', 'the command line, after `--`; it runs with `bash -c`'),
  )
    .option('--agent <id>', "the agent id (standalone default `exec`; connected: the token's)")
    .option('--worktree <dir>', 'the folder the command runs in: the only one it may write to')
    .option('--timeout <seconds>', 'kill the command after this long (exit 124)')
    .option(
      '--grant <grant>',
      'run under the decision a hook granted for exactly this command line and worktree, instead of asking again',
    )
    .option(
      '--no-sandbox',
      'on a host without a sandbox backend, run the command anyway, with the guard rules as the only boundary',
    )
    .option('--json', "Warden's own messages as JSON lines on standard error")
    .action(async (words: string[], options: ExecOptions) =>
      exitWith(await (await import('./exec-command.js')).runExec(io, words, options)),
    );
  const install = hook.command('install').description('install a hook into an agent runtime');
  install
    .command('claude-code')
    .description(
      "write the `PreToolUse` entry (all tools) into a project's `.claude/settings.json` or the user's",
    )
    .option('--project <dir>', 'the project (default: this folder)')
    .option('--user', 'the user settings, `~/.claude/settings.json`')
    .option('--server <url>', 'connected: the Warden server (the token comes from WARDEN_TOKEN)')
    .option('--policy <file>', 'standalone: the policy file')
    .option('--data <dir>', 'standalone: the data folder for the audit log')
    .option('--agent <id>', 'the agent id')
    .option(
      '--gateway-config <file>',
      'pass the hook a gateway configuration that maps MCP servers Claude Code reaches directly',
    )
    .option(
      '--sandbox <mode>',
      'how the hook runs allowed `Bash` commands: `auto` (default), `required` or `off`',
    )
    .option('--json', 'print JSON')
    .action(async (options: HookInstallOptions) =>
      exitWith((await hookInstall()).runHookInstall(io, options)),
    );

  program
    .command('doctor')
    .description(
      'where rules are enforced on this host: the honesty matrix (G37), with a command run through each sandboxed path (exit 1 if one fails)',
    )
    .option('--json', 'print JSON')
    .option(
      '--no-probe',
      'do not run a command through each sandboxed path (run_command, hook, exec, gateway) to check it is confined',
    )
    .action(async (options: DoctorOptions) =>
      exitWith(await (await import('./doctor-command.js')).runDoctor(io, VERSION, options)),
    );

  program
    .command('classifier')
    .description('show the command classifier table, or what it reads in a command line')
    .argument('[command]', 'a command line to classify')
    .option('--worktree <dir>', 'the absolute worktree root relative paths refer to')
    .option('--classifier <file>', 'extend the table with this configuration')
    .option('--json', 'print JSON')
    .action(
      (
        command: string | undefined,
        options: { json?: boolean; worktree?: string; classifier?: string },
      ) => runClassifier(io, command, options),
    );

  const audit = program.command('audit').description('the audit log: integrity and movement');
  audit
    .command('verify')
    .description(
      'recompute the hash chain and name the first changed, removed or reordered entry (exit 1 when broken)',
    )
    .option('--data <dir>', `the data folder (default \`.warden\`; DATABASE_URL for Postgres)`)
    .option('--file <file>', 'verify an exported JSONL file instead')
    .option(
      '--head <hash>',
      'a head noted earlier (export prints it): a file must end there, the log must still hold it',
    )
    .option('--json', 'print JSON')
    .action(async (options: AuditOptions) =>
      exitWith(await (await auditCommands()).runVerify(io, options)),
    );
  audit
    .command('export')
    .description('write the whole audit log as JSON Lines or as OTLP/JSON traces')
    .option('--format <format>', '`jsonl` or `otlp`', 'jsonl')
    .option('--data <dir>', `the data folder (default \`.warden\`; DATABASE_URL for Postgres)`)
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (options: AuditOptions) =>
      exitWith(await (await auditCommands()).runExport(io, options, VERSION)),
    );
  audit
    .command('import')
    .description(
      'append the entries of an exported JSONL file (its chain must verify; entries already present are skipped)',
    )
    .argument('<file>', 'the JSONL file')
    .option('--data <dir>', `the data folder (default \`.warden\`; DATABASE_URL for Postgres)`)
    .option('--json', 'print JSON')
    .action(async (file: string, options: AuditOptions) =>
      exitWith(await (await auditCommands()).runImport(io, file, options)),
    );

  return program;
}

/** Runs the CLI with `args` (without `node` and the script) and returns the exit code. */
export async function run(args: readonly string[], io: Io): Promise<number> {
  const jsonMode = args.includes('--json');
  const program = buildProgram(io, jsonMode);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof Exit) return error.code;
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.ok;
      if (jsonMode) {
        try {
          usage(
            io,
            true,
            optionOf(error.message),
            styleMessage(error.message).replace(/^error: /, ''),
          );
        } catch (inner) {
          if (inner instanceof Exit) return inner.code;
        }
      }
      return EXIT.usage;
    }
    io.err(`warden: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
}

/** Commander's messages in Warden's style: input in backticks, no trailing period. */
function styleMessage(message: string): string {
  return message.replace(/'([^']*)'/g, '`$1`').replace(/\.$/, '');
}

function optionOf(message: string): string {
  return /'(--?[a-z-]+)/.exec(message)?.[1] ?? '';
}

export async function main(argv: readonly string[]): Promise<void> {
  const code = await run(argv.slice(2), processIo());
  process.exitCode = code;
  // Nothing should hold the process open once a command is done; if something does, it ends anyway.
  setTimeout(() => process.exit(code), 3000).unref();
}
