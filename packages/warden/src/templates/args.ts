// A template's arguments are checked whole, like a policy document: every
// problem is listed with its path, and patterns are judged by the engine
// itself (a probe rule per value), so a template accepts exactly what the
// policy document would.

import { ENFORCEMENTS, validatePolicy } from '@warden/engine';
import type { Enforcement } from '@warden/engine';
import { didYouMean, listNames } from './suggest.js';
import type { ParamSpec, ParamValues, TemplateDefinition, TemplateProblem } from './types.js';

export interface CheckedArgs {
  readonly scope: string;
  readonly enforcement: Enforcement;
  readonly values: ParamValues;
}

export type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: TemplateProblem[] };

const ARG_KEYS = ['scope', 'enforcement', 'params'] as const;

/** The workspace of the scratch documents that probe values; it never leaves this module. */
const PROBE_WORKSPACE = 'template-probe';

export function checkArgs(template: TemplateDefinition, args: unknown): Checked<CheckedArgs> {
  const problems: TemplateProblem[] = [];
  const raw: Record<string, unknown> = args === undefined ? {} : (recordOrNull(args) ?? {});
  if (args !== undefined && recordOrNull(args) === null)
    problems.push({
      path: '',
      message: `expected template arguments (a mapping), got ${describe(args)}`,
    });
  for (const key of Object.keys(raw)) {
    if (!(ARG_KEYS as readonly string[]).includes(key))
      problems.push({
        path: key,
        message: `unknown argument \`${key}\`: use ${listNames(ARG_KEYS)}${didYouMean(key, ARG_KEYS)}`,
      });
  }

  let scope = 'workspace';
  if (raw.scope !== undefined) {
    if (typeof raw.scope !== 'string')
      problems.push({ path: 'scope', message: `expected a scope, got ${describe(raw.scope)}` });
    else {
      const problem = engineProblem({ scope: raw.scope, action: 'gitPush', decision: 'deny' });
      if (problem === null) scope = raw.scope;
      else problems.push({ path: 'scope', message: problem });
    }
  }

  let enforcement: Enforcement = 'hard';
  if (raw.enforcement !== undefined) {
    const level = raw.enforcement;
    if (typeof level !== 'string')
      problems.push({
        path: 'enforcement',
        message: `expected an enforcement level, got ${describe(level)}`,
      });
    else if ((ENFORCEMENTS as readonly string[]).includes(level))
      enforcement = level as Enforcement;
    else
      problems.push({
        path: 'enforcement',
        message: `unknown enforcement \`${level}\`: use \`hard\`, \`soft\` or \`advisory\`${didYouMean(level, ENFORCEMENTS)}`,
      });
  }

  const values = checkParams(template, raw.params, problems);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { scope, enforcement, values } };
}

function checkParams(
  template: TemplateDefinition,
  given: unknown,
  problems: TemplateProblem[],
): ParamValues {
  const values: Record<string, readonly string[]> = {};
  if (given === undefined) given = {};
  const raw = recordOrNull(given);
  if (raw === null) {
    problems.push({
      path: 'params',
      message: `expected parameters (a mapping), got ${describe(given)}`,
    });
    return values;
  }
  const names = template.params.map((param) => param.name);
  for (const key of Object.keys(raw)) {
    if (names.includes(key)) continue;
    const takes =
      names.length === 0
        ? `template \`${template.name}\` takes no parameters`
        : `template \`${template.name}\` takes ${listNames(names)}`;
    problems.push({
      path: paramPath(key),
      message: `unknown parameter \`${key}\`: ${takes}${didYouMean(key, names)}`,
    });
  }
  for (const param of template.params) {
    const list = checkParam(template, param, raw[param.name], problems);
    if (list !== null) values[param.name] = list;
  }
  return values;
}

/** The parameter's values, or null when it is absent or has problems (which are pushed). */
function checkParam(
  template: TemplateDefinition,
  param: ParamSpec,
  value: unknown,
  problems: TemplateProblem[],
): readonly string[] | null {
  const path = paramPath(param.name);
  if (value === undefined) {
    if (param.required)
      problems.push({
        path,
        message: `missing parameter \`${param.name}\`: template \`${template.name}\` needs ${param.description}`,
      });
    return null;
  }
  let items: readonly unknown[];
  if (param.kind === 'string') {
    if (typeof value !== 'string') {
      problems.push({ path, message: `expected a string, got ${describe(value)}` });
      return null;
    }
    items = [value];
  } else {
    if (!Array.isArray(value)) {
      problems.push({
        path,
        message: `expected a list of strings, got ${describe(value)}: write \`${param.name}: [${JSON.stringify(value)}]\``,
      });
      return null;
    }
    items = value as readonly unknown[];
  }
  const before = problems.length;
  if (items.length === 0 && param.required)
    problems.push({ path, message: `empty \`${param.name}\`: name at least one value` });
  const strings: string[] = [];
  items.forEach((item, index) => {
    const at = param.kind === 'list' ? paramPath(param.name, index) : path;
    const problem = valueProblem(param, item);
    if (problem === null) strings.push(item as string);
    else problems.push({ path: at, message: problem });
  });
  if (problems.length === before && strings.length > 0) {
    const problem = param.checkList?.(strings) ?? null;
    if (problem !== null) problems.push({ path, message: problem });
  }
  return problems.length === before ? [...new Set(strings)] : null;
}

function valueProblem(param: ParamSpec, item: unknown): string | null {
  if (typeof item !== 'string') return `expected a string, got ${describe(item)}`;
  if (item.trim() === '') return 'empty value';
  const own = param.check?.(item) ?? null;
  if (own !== null) return own;
  const engine = engineProblem(param.probe(item));
  if (engine === null) return null;
  return engine.includes(`\`${item}\``) ? engine : `\`${item}\`: ${engine}`;
}

/** What the engine's validator says about a one-rule document holding `rule`, or null. */
export function engineProblem(rule: Record<string, unknown>): string | null {
  const result = validatePolicy(
    { version: 1, workspace: PROBE_WORKSPACE, rules: [rule] },
    'workspace',
  );
  return result.ok ? null : result.issues.map((issue) => issue.message).join('; ');
}

/** `params.hosts`, `params.hosts[1]`, `params["odd name"]`. */
export function paramPath(name: string, index?: number): string {
  const key = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
  return `params${key}${index === undefined ? '' : `[${index}]`}`;
}

export function recordOrNull(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string \`${value}\``;
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value === 'number' ? 'the number' : `a ${typeof value}`} \`${String(value)}\``;
}
