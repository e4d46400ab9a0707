// A rule's examples: calls the policy must decide as listed, written beside
// the rule (`examples: { allow: [...], prompt: [...], deny: [...] }`). Each
// is a command line or a request without its workspace; it is decided by the
// whole policy — so an example also shows what other rules make of the call —
// for an agent in the rule's own scope. A loader refuses a policy one of
// whose examples decides otherwise. Pure: the time is an argument.

import type { CompiledPolicy } from '../compile/compile.js';
import { compilePolicy } from '../compile/compile.js';
import type { ClassifierTable } from '../classify/table.js';
import { checkRequestAgainstPolicy, validateRequest } from '../document/request.js';
import type { Issue } from '../model/issue.js';
import { issue, issueText, parsePath } from '../model/issue.js';
import type { Rule, RuleExample } from '../model/policy.js';
import { allRules } from '../model/policy.js';
import { explainDecision } from '../resolve/decide.js';

/** Examples decided on every load, at most: longer suites belong in a cases file. */
export const MAX_EXAMPLES = 1000;

/** The workspace a managed policy's examples are decided in (a managed policy names none). */
const EXAMPLE_WORKSPACE = 'example';

/** Where an example's call comes from: an agent in the rule's scope. */
function placed(rule: Rule): Record<string, string> {
  const [kind, id] = rule.scope.split(':', 2);
  if (id === undefined || id === '') return {};
  if (kind === 'agent') return { agent: id };
  if (kind === 'space') return { space: id };
  if (kind === 'mode') return { mode: id };
  return {};
}

function shown(example: RuleExample): string {
  return typeof example === 'string' ? `\`${example}\`` : JSON.stringify(example);
}

export interface ExampleOptions {
  readonly at: number;
  readonly classifier?: ClassifierTable;
}

/**
 * Every example of every rule that the policy does not decide as listed, as
 * an issue at the example's path. A managed policy's examples are decided in
 * an empty workspace under it.
 */
export function checkExamples(compiled: CompiledPolicy, options: ExampleOptions): Issue[] {
  const rules = allRules(compiled.policy).filter((r) => r.examples !== undefined);
  if (rules.length === 0) return [];
  let count = 0;
  for (const rule of rules)
    for (const list of Object.values(rule.examples ?? {})) count += list?.length ?? 0;
  if (count > MAX_EXAMPLES)
    return [
      issue(
        'invalid_value',
        [...parsePath((rules[0] as Rule).path), 'examples'],
        `the policy's rules list ${count} examples; at most ${MAX_EXAMPLES} are decided on every load: keep longer suites in a cases file (\`warden policy test\`)`,
      ),
    ];
  const managed = compiled.policy.kind === 'managed';
  const own = managed
    ? compilePolicy({
        ...compiled.policy,
        kind: 'workspace',
        workspace: EXAMPLE_WORKSPACE,
        rules: [],
        modes: {},
        spaces: {},
      })
    : compiled;
  const workspace = own.policy.workspace ?? EXAMPLE_WORKSPACE;
  const issues: Issue[] = [];
  for (const rule of rules) {
    for (const expected of ['allow', 'prompt', 'deny'] as const) {
      const list = rule.examples?.[expected] ?? [];
      list.forEach((example, i) => {
        const path = [...parsePath(rule.path), 'examples', expected, i];
        const raw: Record<string, unknown> = {
          workspace,
          agent: 'example',
          ...placed(rule),
          ...(typeof example === 'string' ? { command: example } : example),
        };
        const request = validateRequest(raw);
        if (!request.ok) {
          issues.push(
            issue(
              'invalid_value',
              path,
              `${shown(example)} is not a valid request: ${request.issues.map(issueText).join('; ')}`,
            ),
          );
          return;
        }
        const misfit = checkRequestAgainstPolicy(request.value, own.policy);
        if (misfit.length > 0) {
          issues.push(
            issue(
              'invalid_value',
              path,
              `${shown(example)} does not fit the policy: ${misfit.map((p) => p.message).join('; ')}`,
            ),
          );
          return;
        }
        const { result } = explainDecision({
          policy: own,
          managed: managed ? compiled : null,
          request: request.value,
          at: options.at,
          approverConnected: false,
          ...(options.classifier === undefined ? {} : { classifier: options.classifier }),
        });
        if (result.decision !== expected)
          issues.push(
            issue(
              'invalid_value',
              path,
              `rule \`${rule.id}\` lists ${shown(example)} as ${expected}, but the policy decides ${result.decision} (rule \`${result.rule}\` in ${result.scope})`,
            ),
          );
      });
    }
  }
  return issues;
}
