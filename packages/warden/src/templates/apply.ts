// Applying a template: its rules, placed by the common arguments, with fresh
// ids; the preview shows exactly the rules that applying adds, and applying
// validates the whole document with the engine, so nothing half-applies.

import { formatPath } from '@warden/engine';
import { describeRule, validatePolicy } from '@warden/engine';
import type { Issue } from '@warden/engine';
import { checkArgs, recordOrNull } from './args.js';
import type { CheckedArgs } from './args.js';
import { TEMPLATE_NAMES, findTemplate } from './catalog.js';
import { freshIds, takenIds } from './ids.js';
import { didYouMean, listNames } from './suggest.js';
import type {
  RuleBody,
  TemplateArgs,
  TemplateDefinition,
  TemplateProblem,
  TemplateRule,
} from './types.js';

export type RulesResult =
  { ok: true; rules: TemplateRule[] } | { ok: false; problems: TemplateProblem[] };

export type ApplyResult =
  | { ok: true; document: Record<string, unknown>; added: TemplateRule[] }
  | { ok: false; problems: TemplateProblem[] };

export type PreviewResult =
  | { ok: true; rules: TemplateRule[]; sentences: string[] }
  | { ok: false; problems: TemplateProblem[] };

/** The workspace of the scratch document that checks a template's rules on their own. */
const CHECK_WORKSPACE = 'template-check';

/** The rules a template would add, with ids unique in `document` (e.g. `tpl-protect-main-1`, suffixed when taken); or every problem with the arguments. */
export function templateRules(name: string, args: TemplateArgs, document: unknown): RulesResult {
  const template = typeof name === 'string' ? findTemplate(name) : undefined;
  if (template === undefined) return { ok: false, problems: [unknownTemplate(name)] };
  const checked = checkArgs(template, args);
  if (!checked.ok) return checked;
  const bodies = template.rules(checked.value.values);
  const problem = enforcementProblem(template, bodies, checked.value);
  if (problem !== null) return { ok: false, problems: [problem] };

  const ids = freshIds(template.name, bodies.length, takenIds(document));
  const rules = bodies.map((body, index) =>
    placeRule(template, body, ids[index] as string, checked.value),
  );
  // The parameters were judged by the engine already; this holds the template
  // code itself to the document contract.
  const own = validatePolicy({ version: 1, workspace: CHECK_WORKSPACE, rules }, 'workspace');
  if (!own.ok) return { ok: false, problems: own.issues.map(problemOf) };
  return { ok: true, rules };
}

/** The document with the template's rules appended, validated whole by the engine's validatePolicy; nothing half-applies. */
export function applyTemplate(document: unknown, name: string, args: TemplateArgs): ApplyResult {
  const preview = templateRules(name, args, document);
  const current = validatePolicy(document, 'workspace');
  const problems = [
    ...(preview.ok ? [] : preview.problems),
    ...(current.ok ? [] : current.issues.map(problemOf)),
  ];
  if (!preview.ok || !current.ok) return { ok: false, problems };

  const copy = structuredClone(document) as Record<string, unknown>;
  const existing = Array.isArray(copy.rules) ? (copy.rules as unknown[]) : [];
  const added = preview.rules;
  const merged = { ...copy, rules: [...existing, ...structuredClone(added)] };
  const whole = validatePolicy(merged, 'workspace');
  if (!whole.ok) return { ok: false, problems: whole.issues.map(problemOf) };
  return { ok: true, document: merged, added };
}

/** The rules a template would add, each also as the sentence the product shows for it (G19). */
export function previewTemplate(
  name: string,
  args: TemplateArgs,
  document: unknown,
): PreviewResult {
  const preview = templateRules(name, args, document);
  if (!preview.ok) return preview;
  const written = recordOrNull(document)?.workspace;
  const workspace = typeof written === 'string' && written !== '' ? written : CHECK_WORKSPACE;
  const checked = validatePolicy({ version: 1, workspace, rules: preview.rules }, 'workspace');
  if (!checked.ok) return { ok: false, problems: checked.issues.map(problemOf) };
  const named = typeof written === 'string' && written !== '' ? written : undefined;
  return {
    ok: true,
    rules: preview.rules,
    sentences: checked.value.rules.map((rule) => `${rule.id}: ${describeRule(rule, named)}`),
  };
}

function placeRule(
  template: TemplateDefinition,
  body: RuleBody,
  id: string,
  args: CheckedArgs,
): TemplateRule {
  // The keys in the order a policy document writes them.
  return {
    id,
    scope: args.scope,
    ...(body.action === undefined ? {} : { action: body.action }),
    ...(body.command === undefined ? {} : { command: body.command }),
    decision: body.decision,
    ...(body.decision === 'allow' ? {} : { enforcement: args.enforcement }),
    ...(body.when === undefined ? {} : { when: placedWhen(body.when) }),
    origin: 'template',
    note: `template \`${template.name}\``,
  };
}

/** A template's conditions as fresh lists, leaving out the ones it does not set. */
function placedWhen(when: NonNullable<RuleBody['when']>): NonNullable<TemplateRule['when']> {
  return {
    ...(when.paths === undefined ? {} : { paths: [...when.paths] }),
    ...(when.refs === undefined ? {} : { refs: [...when.refs] }),
    ...(when.hosts === undefined ? {} : { hosts: [...when.hosts] }),
  };
}

/** E4 for a whole template: `soft` only on deny, `advisory` never on allow. */
function enforcementProblem(
  template: TemplateDefinition,
  bodies: readonly RuleBody[],
  args: CheckedArgs,
): TemplateProblem | null {
  const level = args.enforcement;
  if (level === 'hard') return null;
  const restrictive = bodies.filter((body) => body.decision !== 'allow');
  if (restrictive.length === 0) {
    const cause =
      level === 'soft'
        ? '`soft` applies only to `deny`'
        : '`advisory` does not apply to `allow`, which is always hard';
    return {
      path: 'enforcement',
      message: `${cause}: template \`${template.name}\` adds only \`allow\` rules`,
    };
  }
  if (level === 'soft' && restrictive.some((body) => body.decision === 'prompt')) {
    return {
      path: 'enforcement',
      message: `\`soft\` applies only to \`deny\`: template \`${template.name}\` adds a \`prompt\` rule: use \`hard\` or \`advisory\``,
    };
  }
  return null;
}

function unknownTemplate(name: unknown): TemplateProblem {
  if (typeof name !== 'string')
    return { path: 'template', message: `expected a template name, got a ${typeof name}` };
  const hint = didYouMean(name, TEMPLATE_NAMES);
  return {
    path: 'template',
    message:
      hint === ''
        ? `unknown template \`${name}\`: the templates are ${listNames(TEMPLATE_NAMES)}`
        : `unknown template \`${name}\`${hint}`,
  };
}

function problemOf(issue: Issue): TemplateProblem {
  return { path: formatPath(issue.path), message: issue.message };
}
