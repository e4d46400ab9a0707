// `warden policy prove FILE`: tries every deny and prompt rule of a workspace
// policy against the disguises of its target the classifier knows — wrappers,
// shells, substitutions, program paths, quoting, option, path, ref and host
// spellings — and prints per rule whether it holds, needs the sandbox, asks
// where it should deny, is bypassable, or is dead. Exit 0 when no rule is
// bypassable, 1 when one is or the input is bad. The engine loads when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ProvedDisguise, RuleProof, RuleVerdict } from '@warden/engine';
import type { InputIssue } from '../../../policy/load.js';
import type { Io, Style } from '../../io.js';
import { EXIT, fail, printJson, style } from '../../io.js';
import type { OptionsOf, Registration } from '../../registration.js';
import { registration } from '../../registration.js';

function prove(policy: CommandUnknownOpts) {
  return policy
    .command('prove')
    .description(
      'try every deny and prompt rule against the spellings of its command the classifier knows (wrappers, shells, paths, quoting, options, refs, hosts): holds, needs the sandbox, bypassable or dead (exit 1 when one is bypassable)',
    )
    .argument('<file>', 'the workspace policy')
    .option('--classifier <file>', 'extend the command classifier with this configuration')
    .option('--at <iso>', 'judge expiry at this time (default: now)')
    .option('--json', 'print JSON');
}

export type PolicyProveOptions = OptionsOf<typeof prove>;

export const registerPolicyProve: Registration = registration(prove, runPolicyProve);

/** How many disguises per rule the table shows; `--json` lists them all. */
const SHOWN = 8;

const VERDICT_TEXT: Record<RuleVerdict, string> = {
  holds: 'holds',
  sandbox: 'needs the sandbox',
  weakened: 'asks instead of denying',
  bypassable: 'bypassable',
  dead: 'dead',
  unproved: 'not provable',
};

function paint(s: Style, verdict: RuleVerdict, text: string): string {
  switch (verdict) {
    case 'holds':
      return s.green(text);
    case 'bypassable':
      return s.red(text);
    case 'sandbox':
    case 'weakened':
    case 'dead':
      return s.yellow(text);
    case 'unproved':
      return s.dim(text);
  }
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function disguiseLine(finding: ProvedDisguise): string {
  const read = finding.classes.filter((c) => c !== 'processSpawn');
  const seen =
    read.length > 0
      ? `read as ${read.join(', ')}`
      : finding.unreadable
        ? 'not readable'
        : 'read as a plain process';
  return `${finding.command.replace(/\n/g, '\\n')}   (${finding.how}; ${finding.decision} by ${finding.rule}; ${seen})`;
}

function details(proof: RuleProof, backend: string | null, transactional: boolean): string[] {
  const lines: string[] = [];
  const head = `${proof.rule} (${proof.path})`;
  const show = (findings: readonly ProvedDisguise[]) => {
    for (const f of findings.slice(0, SHOWN)) lines.push(`    ${disguiseLine(f)}`);
    if (findings.length > SHOWN)
      lines.push(`    … and ${findings.length - SHOWN} more (--json lists them all)`);
  };
  const of = (verdict: ProvedDisguise['verdict']) =>
    proof.findings.filter((f) => f.verdict === verdict);
  const bypass = of('bypass');
  if (bypass.length > 0) {
    lines.push(
      `  ${head}: ${bypass.length} disguise${bypass.length === 1 ? ' is' : 's are'} allowed although the rule says ${proof.decision}, and the classifier read ${bypass.length === 1 ? 'it' : 'them'} — a classifier bug to report:`,
    );
    show(bypass);
  }
  const sandbox = of('sandbox');
  if (sandbox.length > 0) {
    const cover =
      backend === null
        ? 'this host has no sandbox, so nothing stops them'
        : transactional
          ? `this host's sandbox (${backend}) confines them when Warden starts them, and decides what they delete or plant in the worktree before it lands`
          : `this host's sandbox (${backend}) confines them when Warden starts them`;
    lines.push(
      `  ${head}: ${sandbox.length} disguise${sandbox.length === 1 ? ' is' : 's are'} seen only as starting a process; only the sandbox stops ${sandbox.length === 1 ? 'it' : 'them'} — ${cover}:`,
    );
    show(sandbox);
  }
  const weakened = of('weakened');
  if (weakened.length > 0) {
    const why = proof.target.startsWith('command:')
      ? ' (a command rule matches its words as written; the class behind them decides the rest)'
      : '';
    lines.push(
      `  ${head}: ${weakened.length} disguise${weakened.length === 1 ? ' asks' : 's ask'} a human instead of being denied${why}:`,
    );
    show(weakened);
  }
  for (const w of proof.lint)
    lines.push(`  ${head}: ${proof.verdict === 'dead' ? 'dead' : 'note'}: ${w.message}`);
  if (proof.note !== undefined) lines.push(`  ${head}: not provable: ${proof.note}`);
  return lines;
}

export async function runPolicyProve(
  io: Io,
  file: string,
  options: PolicyProveOptions,
): Promise<number> {
  const [{ provePolicy }, { detectHost, sandboxBackend, transactionalProblem }, load, { readAt }] =
    await Promise.all([
      import('@warden/engine'),
      import('../../../honesty/host.js'),
      import('../../../policy/load.js'),
      import('../../read-at.js'),
    ]);
  const { loadClassifier, loadPolicyFile } = load;
  const json = options.json === true;
  const at = readAt(io, json, options.at);
  const issues: InputIssue[] = [];
  const policy = loadPolicyFile(file, 'workspace', io.stdin);
  if (!policy.ok) issues.push(...policy.issues);
  const classifier = loadClassifier(options.classifier, io.stdin);
  if (!classifier.ok) issues.push(...classifier.issues);
  if (!policy.ok || !classifier.ok) return fail(io, json, issues);

  // The host fact is found here and handed to the engine, which never looks.
  const host = detectHost({ env: io.env });
  const backend = sandboxBackend(host);
  const transactional = backend !== null && transactionalProblem(host, io.env) === null;
  const proof = provePolicy({
    policy: policy.value.compiled,
    classifier: classifier.value,
    at,
    sandbox: { backend },
  });
  const ok = proof.counts.bypassable === 0;
  if (json) {
    printJson(io, {
      ok,
      file,
      workspace: policy.value.policy.workspace ?? null,
      classifier: options.classifier ?? null,
      sandbox: { backend, transactional },
      at: new Date(at).toISOString(),
      counts: proof.counts,
      rules: proof.rules,
    });
    return ok ? EXIT.ok : EXIT.usage;
  }

  const s = style(io.color);
  const rows = proof.rules.map((r) => ({
    proof: r,
    cells: [
      r.rule,
      r.scope,
      r.decision,
      VERDICT_TEXT[r.verdict],
      r.tried === 0
        ? r.target
        : `${r.target}: ${r.tried} disguise${r.tried === 1 ? '' : 's'}${r.findings.length === 0 ? '' : `, ${r.findings.length} not held`}`,
    ],
  }));
  const headers = ['RULE', 'SCOPE', 'DECISION', 'VERDICT', 'TARGET'];
  const widths = headers.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => row.cells[i]?.length ?? 0)),
  );
  io.out(
    `${file}: policy for workspace \`${policy.value.policy.workspace ?? ''}\`; classifier: ${options.classifier ?? 'the built-in table'}; sandbox on this host: ${backend ?? 'none'}\n\n`,
  );
  io.out(
    `${s.dim(
      headers
        .map((h, i) => pad(h, widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )}\n`,
  );
  for (const row of rows) {
    const cells = row.cells.map((cell, i) => {
      const padded = pad(cell, widths[i] ?? 0);
      return i === 3 ? paint(s, row.proof.verdict, padded) : padded;
    });
    io.out(`${cells.join('  ').trimEnd()}\n`);
  }
  if (rows.length === 0) io.out('no deny or prompt rule, and no dead rule\n');
  const explained = proof.rules.flatMap((r) => details(r, backend, transactional));
  if (explained.length > 0) io.out(`\n${explained.join('\n')}\n`);
  const c = proof.counts;
  const parts = [
    `${c.holds} hold${c.holds === 1 ? 's' : ''}`,
    ...(c.sandbox > 0 ? [`${c.sandbox} need${c.sandbox === 1 ? 's' : ''} the sandbox`] : []),
    ...(c.weakened > 0
      ? [`${c.weakened} ask${c.weakened === 1 ? 's' : ''} instead of denying`]
      : []),
    `${c.bypassable} bypassable`,
    ...(c.dead > 0 ? [`${c.dead} dead`] : []),
    ...(c.unproved > 0 ? [`${c.unproved} not provable`] : []),
  ];
  const summary = `${proof.rules.length} rule${proof.rules.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
  io.out(`\n${ok ? s.green(summary) : s.red(summary)}\n`);
  return ok ? EXIT.ok : EXIT.usage;
}
