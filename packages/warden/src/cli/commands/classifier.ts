// `warden classifier`: the command classifier's table (G14c), and what it
// makes of a command line — the same reading every choke point uses. The
// engine loads when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandAnalysis } from '@warden/engine';
import type { Io } from '../io.js';
import { fail, printJson, style, usage } from '../io.js';
import type { OptionsOf, Registration } from '../registration.js';
import { registration } from '../registration.js';

function classifier(program: CommandUnknownOpts) {
  return program
    .command('classifier')
    .description('show the command classifier table, or what it reads in a command line')
    .argument('[command]', 'a command line to classify')
    .option('--worktree <dir>', 'the absolute worktree root relative paths refer to')
    .option('--classifier <file>', 'extend the table with this configuration')
    .option('--json', 'print JSON');
}

export type ClassifierOptions = OptionsOf<typeof classifier>;

export const registerClassifier: Registration = registration(classifier, runClassifier);

export async function runClassifier(
  io: Io,
  command: string | undefined,
  options: ClassifierOptions,
): Promise<void> {
  const [{ DEFAULT_CONTROL_PATHS, EXTRACTOR_DESCRIPTIONS, analyzeCommand }, { loadClassifier }] =
    await Promise.all([import('@warden/engine'), import('../../policy/load.js')]);
  const json = options.json === true;
  const table = loadClassifier(options.classifier, io.stdin);
  if (!table.ok) return fail(io, json, table.issues);
  if (command === undefined) {
    if (json) {
      printJson(io, {
        ...table.value,
        extractors: EXTRACTOR_DESCRIPTIONS,
        controlPaths: DEFAULT_CONTROL_PATHS,
      });
      return;
    }
    const s = style(io.color);
    io.out(
      `${s.bold('Wrappers')} (unwrapped to the command they run; an unknown option makes a command unparseable)\n`,
    );
    for (const [name, entry] of Object.entries(table.value.wrappers))
      io.out(`  ${name.padEnd(10)} ${entry.describe}\n`);
    io.out(`\n${s.bold('Programs')} with argument extraction\n`);
    for (const [program, extractor] of Object.entries(table.value.programs)) {
      io.out(`  ${program.padEnd(10)} ${EXTRACTOR_DESCRIPTIONS[extractor]}\n`);
    }
    io.out(`\n${s.bold('Command prefixes')}\n`);
    for (const entry of table.value.commands)
      io.out(`  ${entry.command.padEnd(24)} ${entry.classes.join(', ')}\n`);
    io.out(
      `\n${s.bold('Variables')} that make a command unparseable when assigned: ${table.value.dangerousVariables.join(', ')}\n`,
    );
    io.out(
      `${s.bold('Variables')} that make later commands run or reach elsewhere, unparseable when set for them (\`export\`, a lone assignment): ${(table.value.persistentVariables ?? []).join(', ')}\n`,
    );
    io.out(
      `\n${s.bold('Redirections')}: a target outside the worktree (\`> f\`, \`>> f\`, \`tee f\`) → fileWriteOutsideWorktree\n`,
    );
    io.out(
      `Every simple command is also processSpawn. System paths for allows: ${table.value.systemPaths.join(', ')}\n`,
    );
    io.out(
      `\n${s.bold('Paths that change what later commands run')}: a write there that a transactional run observes is workspaceMutation, which asks by default (a policy's \`controlPaths\` adds to them): ${DEFAULT_CONTROL_PATHS.join(', ')}\n`,
    );
    return;
  }
  if (options.worktree !== undefined && !options.worktree.startsWith('/')) {
    return usage(io, json, '--worktree', `\`${options.worktree}\` is not an absolute path`);
  }
  const analysis = analyzeCommand(command, table.value, options.worktree ?? null);
  if (json) printJson(io, describeAnalysis(analysis));
  else io.out(renderAnalysis(analysis, io.color));
}

function describeAnalysis(analysis: CommandAnalysis): unknown {
  return {
    command: analysis.text,
    units: analysis.units.map((unit) => ({
      kind: unit.kind === 'command' && unit.inner ? 'substitution' : unit.kind,
      ...(unit.kind !== 'effects'
        ? { facet: unit.inner ? null : `command:${unit.name}`, text: unit.name }
        : {}),
      ...(unit.kind === 'raw' ? { reason: unit.reason } : {}),
      classes: unit.effects.map((e) => ({ class: e.cls, args: e.args })),
    })),
  };
}

function renderAnalysis(analysis: CommandAnalysis, color: boolean): string {
  const s = style(color);
  const lines: string[] = [];
  for (const unit of analysis.units) {
    const classes = unit.effects
      .map((e) => {
        const args = Object.entries(e.args).map(
          ([k, v]) => `${k}=${v === null ? 'unknown' : JSON.stringify(v)}`,
        );
        return args.length === 0 ? e.cls : `${e.cls}(${args.join(', ')})`;
      })
      .join(', ');
    if (unit.kind === 'effects') lines.push(`  ${s.dim('(redirection)')}  ${classes}`);
    else if (unit.kind === 'raw')
      lines.push(
        `  ${s.yellow('unparseable')} ${unit.name}\n      ${s.dim(unit.reason)}\n      ${classes}`,
      );
    else
      lines.push(
        `  ${unit.inner ? s.dim('(inside a substitution) ') : ''}${s.bold(unit.name)}\n      ${classes}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
