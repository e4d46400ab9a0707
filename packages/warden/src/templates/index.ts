// Warden's shipped policy templates: named, parameterised sets of real policy
// rules (origin `template`) that an admin previews and applies to a workspace
// policy document. Named exports only.

export type {
  TemplateArgs,
  TemplateInfo,
  TemplateParam,
  TemplateProblem,
  TemplateRule,
} from './types.js';
export { TEMPLATES } from './catalog.js';
export type { ApplyResult, PreviewResult, RulesResult } from './apply.js';
export { applyTemplate, previewTemplate, templateRules } from './apply.js';
