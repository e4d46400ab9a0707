// `warden templates list|show|apply`: the shipped policy templates. Listing
// and showing need nothing but this package; applying adds a template's rules
// to a workspace's current policy as its next revision — on a server
// (`--server`, a token that may change the policy) or straight into the data
// folder (or DATABASE_URL's Postgres), through the same `applyTemplate`. The
// templates load when a subcommand runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type {
  TemplateArgs,
  TemplateInfo,
  TemplateParam,
  TemplateRule,
} from '../../templates/index.js';
import type { TemplateAppliedView, TemplateRuleView } from '../../views/templates.js';
import type { PolicyWriteResult, Warden } from '../../warden.js';
import { author } from '../author.js';
import { collect, connectOptions, DATA_FLAG } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, Exit, fail, printJson, style, usage } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';
import { handler } from '../registration.js';
import { useServer } from '../store-or-server.js';

function list(templates: CommandUnknownOpts) {
  return templates
    .command('list')
    .description('the templates: names, titles and the parameters they take')
    .option('--json', 'print JSON');
}

function show(templates: CommandUnknownOpts) {
  return templates
    .command('show')
    .description('what one template does, and its parameters')
    .argument('<name>', 'the template')
    .option('--json', 'print JSON');
}

function apply(templates: CommandUnknownOpts) {
  return connectOptions(
    templates
      .command('apply')
      .description(
        "add a template's rules to a workspace policy as the next revision: on a server (`--server`, admin token) or in the data folder",
      )
      .argument('<name>', 'the template')
      .option('--param <key=value>', 'a parameter; repeat it for each value of a list', collect)
      .option('--workspace <id>', 'the workspace (needed when several have a policy)')
      .option(DATA_FLAG.usage, DATA_FLAG.description)
      .option('--message <text>', 'say why, for the revision history (default: `template NAME`)'),
  ).option('--json', 'print JSON');
}

export type TemplatesListOptions = OptionsOf<typeof list>;
export type TemplatesShowOptions = OptionsOf<typeof show>;
export type TemplatesOptions = OptionsOf<typeof apply>;

export function registerTemplates(program: CommandUnknownOpts, cli: Cli): void {
  const templates = program
    .command('templates')
    .description('the shipped policy templates: named sets of rules to add to a workspace policy');
  list(templates).action(handler(cli, runTemplatesList));
  show(templates).action(handler(cli, runTemplatesShow));
  apply(templates).action(handler(cli, runTemplatesApply));
}

interface Problem {
  readonly path: string;
  readonly message: string;
}

/** What the templates need beyond the command line, loaded when a subcommand runs. */
async function library() {
  const [
    { describeRule, didYouMean, validatePolicy },
    { TEMPLATES, applyTemplate, templateRules },
    { renderedAll },
  ] = await Promise.all([
    import('@warden/engine'),
    import('../../templates/index.js'),
    import('../../policy/problems.js'),
  ]);
  return {
    describeRule,
    didYouMean,
    validatePolicy,
    TEMPLATES,
    applyTemplate,
    templateRules,
    renderedAll,
  };
}

type Library = Awaited<ReturnType<typeof library>>;

function known(lib: Library, io: Io, json: boolean, name: string): TemplateInfo {
  const template = lib.TEMPLATES.find((t) => t.name === name);
  if (template !== undefined) return template;
  const names = lib.TEMPLATES.map((t) => t.name);
  const hint = lib.didYouMean(name, names);
  return usage(
    io,
    json,
    '',
    hint === ''
      ? `unknown template \`${name}\`: the templates are ${names.map((n) => `\`${n}\``).join(', ')}`
      : `unknown template \`${name}\`${hint}`,
  );
}

function examples(param: TemplateParam): readonly string[] {
  return typeof param.example === 'string' ? [param.example] : param.example;
}

/** A value as it is typed in a shell: quoted when the shell would read it otherwise. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_./:@=+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function firstFlag(param: TemplateParam): string {
  return `--param ${param.name}=${shellWord(examples(param)[0] ?? 'VALUE')}`;
}

function paramFlags(param: TemplateParam): string {
  const values = param.kind === 'list' ? examples(param) : examples(param).slice(0, 1);
  return values.map((value) => `--param ${param.name}=${shellWord(value)}`).join(' ');
}

function paramSummary(param: TemplateParam): string {
  const values = examples(param)
    .map((value) => `\`${value}\``)
    .join(', ');
  return `${param.name} (${param.required ? 'required' : 'optional'}; e.g. ${values})`;
}

/** Words wrapped to `width` columns, each line after `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(`${indent}${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines.join('\n');
}

export async function runTemplatesList(io: Io, options: TemplatesListOptions): Promise<number> {
  const { TEMPLATES } = await library();
  if (options.json === true) {
    printJson(io, {
      templates: TEMPLATES.map((t) => ({
        name: t.name,
        title: t.title,
        params: t.params.map((p) => ({
          name: p.name,
          required: p.required,
          kind: p.kind,
          example: p.example,
        })),
      })),
    });
    return EXIT.ok;
  }
  const s = style(io.color);
  const nameWidth = Math.max(4, ...TEMPLATES.map((t) => t.name.length));
  const titleWidth = Math.max(5, ...TEMPLATES.map((t) => t.title.length));
  io.out(`${s.dim(`${'NAME'.padEnd(nameWidth)}  ${'TITLE'.padEnd(titleWidth)}  PARAMETERS`)}\n`);
  for (const t of TEMPLATES) {
    const params = t.params.length === 0 ? ['none'] : t.params.map(paramSummary);
    io.out(`${s.bold(t.name.padEnd(nameWidth))}  ${t.title.padEnd(titleWidth)}  ${params[0]}\n`);
    for (const more of params.slice(1))
      io.out(`${' '.repeat(nameWidth + titleWidth + 4)}${more}\n`);
  }
  io.out(
    s.dim(
      '\n`warden templates show NAME` says what one does; `warden templates apply NAME` adds its rules\n',
    ),
  );
  return EXIT.ok;
}

export async function runTemplatesShow(
  io: Io,
  name: string,
  options: TemplatesShowOptions,
): Promise<number> {
  const json = options.json === true;
  const template = known(await library(), io, json, name);
  if (json) {
    printJson(io, template);
    return EXIT.ok;
  }
  const s = style(io.color);
  const lines = [
    `${s.bold(template.name)}: ${template.title}`,
    '',
    wrap(template.description, 80, ''),
    '',
  ];
  if (template.params.length === 0) lines.push('It takes no parameters.');
  else {
    lines.push('Parameters:');
    for (const p of template.params) {
      const kind = p.kind === 'list' ? 'a list: repeat `--param` for each value' : 'one value';
      lines.push(`  ${s.bold(p.name)}  ${p.required ? 'required' : 'optional'}, ${kind}`);
      lines.push(wrap(p.description, 80, '    '));
      lines.push(`    e.g. ${paramFlags(p)}`);
    }
  }
  const required = template.params.filter((p) => p.required).map(paramFlags);
  lines.push(
    '',
    s.dim(`Apply it: warden templates apply ${[template.name, ...required].join(' ')}`),
  );
  io.out(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

/** `--param key=value`, repeated, as the API's `params`: a list parameter always takes a list. */
function paramsOf(
  template: TemplateInfo,
  given: readonly string[],
): { params: Record<string, string | string[]>; problems: Problem[] } {
  const problems: Problem[] = [];
  const values = new Map<string, string[]>();
  for (const pair of given) {
    const at = pair.indexOf('=');
    const key = at < 0 ? '' : pair.slice(0, at).trim();
    if (key === '') {
      problems.push({
        path: '--param',
        message: `\`${pair}\` is not \`key=value\`${template.params[0] === undefined ? '' : `: e.g. \`${firstFlag(template.params[0])}\``}`,
      });
      continue;
    }
    values.set(key, [...(values.get(key) ?? []), pair.slice(at + 1)]);
  }
  const params: Record<string, string | string[]> = {};
  for (const [key, list] of values) {
    const param = template.params.find((p) => p.name === key);
    if (param?.kind === 'string') {
      if (list.length > 1)
        problems.push({
          path: `--param ${key}`,
          message: `\`${key}\` takes one value, not ${list.length}`,
        });
      else params[key] = list[0] as string;
    } else params[key] = param === undefined && list.length === 1 ? (list[0] as string) : list;
  }
  return { params, problems };
}

/** A template problem's path as the command line spells it: `params.hosts[1]` is `--param hosts`. */
function flagPath(path: string): string {
  const param = /^params(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\[("(?:[^"\\]|\\.)*")\])/.exec(path);
  if (param !== null) return `--param ${param[1] ?? (JSON.parse(param[2] as string) as string)}`;
  if (path === 'template') return '';
  if (path === 'workspace') return '--workspace';
  return path;
}

function failWith(io: Io, json: boolean, problems: readonly Problem[]): never {
  return fail(
    io,
    json,
    problems.map((p) => ({ code: 'invalid_value', path: flagPath(p.path), message: p.message })),
  );
}

/** Each added rule with the sentence the product shows for it. */
function withSentences(
  lib: Library,
  rules: readonly TemplateRuleView[],
  workspace: string,
): (TemplateRuleView & { readonly sentence?: string })[] {
  const checked = lib.validatePolicy({ version: 1, workspace, rules }, 'workspace');
  if (!checked.ok) return rules.map((rule) => ({ ...rule }));
  return rules.map((rule, index) => {
    const compiled = checked.value.rules[index];
    return compiled === undefined
      ? { ...rule }
      : { ...rule, sentence: lib.describeRule(compiled, workspace) };
  });
}

export async function runTemplatesApply(
  io: Io,
  name: string,
  options: TemplatesOptions,
): Promise<number> {
  const json = options.json === true;
  const lib = await library();
  const template = known(lib, io, json, name);
  const { params, problems: malformed } = paramsOf(template, options.param ?? []);
  const args: TemplateArgs = Object.keys(params).length === 0 ? {} : { params };
  // The arguments are checked here first, by the function the server uses: every problem at once,
  // before any store or server is reached.
  const checked = lib.templateRules(template.name, args, {});
  const problems = [
    ...malformed,
    ...(checked.ok ? [] : checked.problems),
    ...(options.workspace !== undefined && options.workspace.trim() === ''
      ? [{ path: '--workspace', message: 'name the workspace: e.g. `--workspace acme`' }]
      : []),
  ];
  if (problems.length > 0) return failWith(io, json, problems);

  const application = { io, name: template.name, args, options, json };
  const applied = useServer(io, options)
    ? await applyRemotely(application)
    : await applyLocally(lib, application);

  const added = withSentences(lib, applied.added, applied.workspace);
  if (json) {
    printJson(io, {
      applied: true,
      template: template.name,
      workspace: applied.workspace,
      revision: applied.revision,
      hash: applied.hash,
      added,
    });
    return EXIT.ok;
  }
  const s = style(io.color);
  const where = `workspace \`${applied.workspace}\``;
  io.out(
    `${s.green('applied')}: template \`${template.name}\` made revision ${applied.revision} of ${where} (${added.length} rule${added.length === 1 ? '' : 's'} added)\n`,
  );
  for (const rule of added)
    io.out(`  ${s.bold(rule.id)}  ${rule.sentence ?? JSON.stringify(rule)}\n`);
  return EXIT.ok;
}

/** One `templates apply`: the template, its checked arguments and the command's options. */
interface Application {
  readonly io: Io;
  readonly name: string;
  readonly args: TemplateArgs;
  readonly options: TemplatesOptions;
  readonly json: boolean;
}

async function applyRemotely(application: Application): Promise<TemplateAppliedView> {
  const { io, name, args, options, json } = application;
  const [{ connection, expected, refused, request }, { templateAppliedView }] = await Promise.all([
    import('../client.js'),
    import('../../views/templates.js'),
  ]);
  const conn = connection(io, options);
  const answer = await request(
    io,
    conn,
    'POST',
    `/v1/templates/${encodeURIComponent(name)}/apply`,
    {
      json,
      body: {
        ...args,
        ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
        ...(options.message === undefined ? {} : { message: options.message }),
      },
    },
  );
  if (answer.status < 200 || answer.status > 299) {
    const errors = (answer.body as { errors?: Problem[] } | null)?.errors;
    return refused(
      io,
      json,
      Array.isArray(errors)
        ? {
            ...answer,
            body: { errors: errors.map((e) => ({ ...e, path: flagPath(e.path ?? '') })) },
          }
        : answer,
    );
  }
  return expected(io, json, `POST /v1/templates/${name}/apply`, templateAppliedView, answer.body);
}

const APPLY_ONE = 'apply one first with `warden policy apply FILE`';

async function applyLocally(
  lib: Library,
  { io, name, args, options, json }: Application,
): Promise<TemplateAppliedView> {
  const { openWardenFor, storePlace } = await import('../open.js');
  // An absent data folder holds no policy: say so rather than make an empty store.
  const warden = await openWardenFor(io, options.data, {
    json,
    existing: { hint: `no policy yet: ${APPLY_ONE}` },
    warden: { env: {}, managedPolicyFile: null },
  });
  let workspace: string;
  let written: PolicyWriteResult;
  let added: TemplateRule[];
  try {
    workspace = options.workspace ?? (await onlyWorkspace(io, json, warden));
    const current = await warden.store.policies.current(workspace);
    if (current === null)
      return usage(
        io,
        json,
        '--workspace',
        `no policy is stored for workspace \`${workspace}\`: ${APPLY_ONE}`,
      );
    const result = lib.applyTemplate(current.document, name, args);
    if (!result.ok) return failWith(io, json, result.problems);
    added = result.added;
    written = await warden.putPolicy(result.document, {
      author: author(),
      message: options.message ?? `template ${name}`,
      expected: current.revision,
    });
  } catch (error) {
    if (error instanceof Exit) throw error;
    return usage(
      io,
      json,
      storePlace(io, options.data).flag,
      `cannot use the store: ${(error as Error).message}`,
    );
  } finally {
    await warden.close();
  }
  if (!written.ok)
    return 'conflict' in written
      ? usage(io, json, '', 'the policy changed meanwhile: apply the template again')
      : failWith(io, json, lib.renderedAll(written.issues));
  return {
    workspace,
    revision: written.revision.revision,
    hash: written.revision.hash,
    added,
  };
}

/** The one workspace with a policy, when `--workspace` is not given. */
async function onlyWorkspace(io: Io, json: boolean, warden: Warden): Promise<string> {
  const workspaces = await warden.store.policies.workspaces();
  if (workspaces.length === 1) return workspaces[0] as string;
  return usage(
    io,
    json,
    '--workspace',
    workspaces.length === 0
      ? `no workspace has a policy yet: ${APPLY_ONE}`
      : `say which workspace: ${workspaces.map((w) => `\`--workspace ${w}\``).join(', ')}`,
  );
}
