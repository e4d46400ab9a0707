// The shapes of Warden's policy templates: what an admin reads about one
// (`TemplateInfo`), what they pass it (`TemplateArgs`), and what a template
// builds before the common arguments place its rules (`RuleBody`).

import type { ActionClass, Decision, Enforcement } from '@warden/engine';

export interface TemplateParam {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly kind: 'string' | 'list';
  readonly example: string | readonly string[];
}

export interface TemplateInfo {
  /** Stable kebab-case name, used to apply it. */
  readonly name: string;
  /** The promise in plain words. */
  readonly title: string;
  /** What it does and what it does not do. */
  readonly description: string;
  readonly params: readonly TemplateParam[];
}

export type TemplateArgs = {
  /** `workspace` (default), `agent:<id>` or `space:<id>`. */
  readonly scope?: string;
  /** For the template's restrictive rules; allow rules are always hard (E4). */
  readonly enforcement?: 'hard' | 'soft' | 'advisory';
  readonly params?: Readonly<Record<string, string | readonly string[]>>;
};

/** A problem with a template's arguments or with the document it is applied to. */
export interface TemplateProblem {
  /** `template`, `scope`, `enforcement`, `params.hosts[1]`, or a path into the document. */
  readonly path: string;
  readonly message: string;
}

/** Parameter values after checking: a `string` parameter is a one-value list. */
export type ParamValues = Readonly<Record<string, readonly string[]>>;

/** A rule as a template writes it; `id`, `scope`, `enforcement` and `origin` are added on applying. */
export interface RuleBody {
  readonly action?: ActionClass;
  readonly command?: string;
  readonly decision: Decision;
  readonly when?: {
    readonly paths?: readonly string[];
    readonly refs?: readonly string[];
    readonly hosts?: readonly string[];
  };
}

/** A rule as a template adds it to a policy document: placed, with a fresh id, its origin and a note. */
export type TemplateRule = {
  readonly id: string;
  readonly scope: string;
  readonly action?: ActionClass;
  readonly command?: string;
  readonly decision: Decision;
  /** On restrictive rules only: an `allow` is always hard. */
  readonly enforcement?: Enforcement;
  readonly when?: {
    readonly paths?: string[];
    readonly refs?: string[];
    readonly hosts?: string[];
  };
  readonly origin: 'template';
  readonly note: string;
};

export interface ParamSpec extends TemplateParam {
  /**
   * A rule holding one value the way the template uses it, for the engine to
   * judge: the engine stays the one authority on patterns and prefixes.
   */
  readonly probe: (value: string) => Record<string, unknown>;
  /** A problem the engine cannot see, such as a negation that would lift the protection. */
  readonly check?: (value: string) => string | null;
  /** A problem with the values together, such as a list of negations only. */
  readonly checkList?: (values: readonly string[]) => string | null;
}

export interface TemplateDefinition extends TemplateInfo {
  readonly params: readonly ParamSpec[];
  /** The rules, from checked parameter values; never empty. */
  readonly rules: (params: ParamValues) => readonly RuleBody[];
}
