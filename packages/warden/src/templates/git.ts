// The templates about pushing: ask before every push, and never push to the
// protected branches.

import type { TemplateDefinition } from './types.js';

export const NEVER_PUSH_WITHOUT_ASKING: TemplateDefinition = {
  name: 'never-push-without-asking',
  title: 'Never push without asking',
  description:
    'Every push to a git remote waits for a human. A tool that declares `gitPush`, and any shell ' +
    'command the classifier reads as a push (`cd api && git push origin main` included), resolves ' +
    'to `prompt`, and with no approver connected the prompt is denied (fail-closed). The ' +
    'built-in default already prompts for pushes; this rule pins that in its scope, so a mode ' +
    'preset that allows pushes no longer does. It does not hold against a narrower scope: an ' +
    'allow for an agent or a space decides before a workspace rule. In a space whose autonomy ' +
    'is `actFreely` the dial pre-approves every prompt, this one included: to stop pushes ' +
    'there, deny them (`protect-main`) or pin the rule in the managed layer. `soft` does not apply ' +
    '(the rule prompts, it does not deny); `advisory` only reports the pushes it would have held.',
  params: [],
  rules: () => [{ action: 'gitPush', decision: 'prompt' }],
};

/** Always protected; `branches` adds to them. */
export const PROTECTED_BRANCHES = ['main', 'master'] as const;

export const PROTECT_MAIN: TemplateDefinition = {
  name: 'protect-main',
  title: 'Protect main',
  description:
    'Denies pushing to `main` and `master`, and to any further branches given. It holds written either way ' +
    '(`main` and `refs/heads/main` are the same ref), as the destination of a refspec ' +
    '(`feature:main`), and as a deletion (`:main`). Pushes to other branches are left to the ' +
    'other rules (the built-in default prompts). A push whose target the tool does not report or ' +
    'the classifier cannot read (`git push`, `git push origin HEAD`, `--all`) is escalated to a ' +
    'prompt, which `actFreely` does not pre-approve. It covers branch pushes only: ' +
    'tags (`refs/tags/main`) and merging a pull request into main (`prPublish`) are other ' +
    'actions, and an allow in a narrower scope decides before this rule: to pin it against ' +
    'every scope, put it in the managed layer.',
  params: [
    {
      name: 'branches',
      description:
        'more branches to protect, as ref globs (`release/**` is every release branch); `main` and `master` are always protected',
      required: false,
      kind: 'list',
      example: ['develop', 'release/**'],
      probe: (value) => ({ action: 'gitPush', decision: 'deny', when: { refs: [value] } }),
      check: (value) =>
        value.startsWith('!')
          ? 'a negation would lift the protection: list only the branches to protect'
          : null,
    },
  ],
  rules: (params) => [
    {
      action: 'gitPush',
      decision: 'deny',
      when: { refs: unique([...PROTECTED_BRANCHES, ...(params.branches ?? [])]) },
    },
  ],
};

export function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
