// The shipped library: every template in the order the product lists them.

import { NEVER_DELETE_OUTSIDE_WORKTREE, READS_ALWAYS_ALLOWED } from './files.js';
import { NEVER_PUSH_WITHOUT_ASKING, PROTECT_MAIN } from './git.js';
import { EGRESS_ALLOWLIST, NO_PACKAGE_INSTALLS } from './network.js';
import type { TemplateDefinition, TemplateInfo } from './types.js';

const DEFINITIONS: readonly TemplateDefinition[] = [
  NEVER_PUSH_WITHOUT_ASKING,
  NEVER_DELETE_OUTSIDE_WORKTREE,
  READS_ALWAYS_ALLOWED,
  PROTECT_MAIN,
  NO_PACKAGE_INSTALLS,
  EGRESS_ALLOWLIST,
];

/** What the product shows about each template: plain data, no functions. */
export const TEMPLATES: readonly TemplateInfo[] = DEFINITIONS.map((template) => ({
  name: template.name,
  title: template.title,
  description: template.description,
  params: template.params.map(({ name, description, required, kind, example }) => ({
    name,
    description,
    required,
    kind,
    example,
  })),
}));

export const TEMPLATE_NAMES: readonly string[] = DEFINITIONS.map((template) => template.name);

export function findTemplate(name: string): TemplateDefinition | undefined {
  return DEFINITIONS.find((template) => template.name === name);
}
