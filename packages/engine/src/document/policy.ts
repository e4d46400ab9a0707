// Policy documents (contracts §1, E4, E5, E29) are validated whole: every
// problem is listed with its path, and nothing half-loads.

import { z } from 'zod';
import { ACTION_CLASSES, isActionClass } from '../model/classes.js';
import type { Autonomy, Decision, Enforcement } from '../model/decision.js';
import { AUTONOMY_LEVELS, DECISIONS, ENFORCEMENTS } from '../model/decision.js';
import type { Issue, PathSegment, Result } from '../model/issue.js';
import { formatPath, issue, parsePath } from '../model/issue.js';
import type {
  Constraints,
  ManagedFreeze,
  ModeSettings,
  Origin,
  Policy,
  PolicyKind,
  Rule,
  RuleExamples,
  SpaceSettings,
} from '../model/policy.js';
import { CONSTRAINT_KEYS, ORIGINS } from '../model/policy.js';
import { parseHostPattern } from '../match/hosts.js';
import { pathPatternProblem } from '../match/paths.js';
import { refPatternProblem } from '../match/refs.js';
import { canonicalJson } from '../util/canonical-json.js';
import { didYouMean } from '../util/did-you-mean.js';
import { sha256Hex } from '../util/hash.js';
import { parseTimestamp } from '../util/time.js';
import { commandPrefixWords } from './command-text.js';
import { RULE_KEYS, wellFormedRule } from './rule-shape.js';
import { describe, fromZod, safeParse } from './zod-issues.js';

const ROOT_KEYS = [
  'version',
  'workspace',
  'spaces',
  'modes',
  'rules',
  'controlPaths',
  'freeze',
] as const;
const FREEZE_KEYS = ['workspace', 'agent', 'reason', 'since'] as const;
/** Freezes a managed policy may hold. */
export const MAX_MANAGED_FREEZES = 1000;
const PRESET_KEYS = RULE_KEYS.filter((key) => key !== 'scope');
const MODE_KEYS = ['preset', 'commandNet'] as const;
const SPACE_KEYS = ['autonomy'] as const;

const nonEmptyStrings = z.array(z.string().min(1)).min(1);
const cap = z.number().int().min(0);

const whenSchema = z.strictObject({
  paths: nonEmptyStrings.optional(),
  refs: nonEmptyStrings.optional(),
  hosts: nonEmptyStrings.optional(),
  commands: nonEmptyStrings.optional(),
  maxCount: cap.optional(),
  maxCents: cap.optional(),
});

/** A call a rule's examples name: a command line, or a request without its workspace. */
const exampleSchema = z.union([z.string().min(1), z.record(z.string(), z.unknown())]);
const exampleList = z.array(exampleSchema).min(1).max(100);
const examplesSchema = z.strictObject({
  allow: exampleList.optional(),
  prompt: exampleList.optional(),
  deny: exampleList.optional(),
});

const ruleFields = {
  id: z.string().min(1).optional(),
  action: z.string().optional(),
  command: z.string().optional(),
  decision: z.string(),
  enforcement: z.string().optional(),
  when: whenSchema.optional(),
  expiresAt: z.string().optional(),
  origin: z.string().optional(),
  note: z.string().optional(),
  examples: examplesSchema.optional(),
};
export const ruleSchema = z.strictObject({ ...ruleFields, scope: z.string().optional() });
export const presetSchema = z.strictObject(ruleFields);
type RawRule = z.infer<typeof ruleSchema>;

const rootSchema = z.strictObject({
  version: z.unknown(),
  workspace: z.string().min(1).optional(),
  spaces: z.record(z.string(), z.unknown()).optional(),
  modes: z.record(z.string(), z.unknown()).optional(),
  rules: z.array(z.unknown()).optional(),
  controlPaths: z.array(z.string()).optional(),
  freeze: z.array(z.unknown()).optional(),
});
const freezeSchema = z.strictObject({
  workspace: z.string().min(1),
  agent: z.string().min(1).optional(),
  reason: z.string().min(1).max(500).optional(),
  since: z.string().optional(),
});
const spaceSchema = z.strictObject({ autonomy: z.string().optional() });
const modeSchema = z.strictObject({
  preset: z.array(z.unknown()).optional(),
  commandNet: z.array(z.string()).optional(),
});

function knownFields(path: readonly PathSegment[]): readonly string[] {
  const [head, , third, , fifth] = path;
  if (path.length === 0) return ROOT_KEYS;
  if (head === 'rules')
    return path.length === 2 ? RULE_KEYS : path.length === 3 ? CONSTRAINT_KEYS : [];
  if (head === 'spaces' && path.length === 2) return SPACE_KEYS;
  if (head === 'freeze' && path.length === 2) return FREEZE_KEYS;
  if (head === 'modes') {
    if (path.length === 2) return MODE_KEYS;
    if (third === 'preset')
      return path.length === 4 ? PRESET_KEYS : fifth === 'when' ? CONSTRAINT_KEYS : [];
  }
  return [];
}

/** Ids: non-empty, no white space, no `:` (it separates a scope's kind from its id). */
// eslint-disable-next-line no-control-regex -- ids must not hold control characters
const ID = /^[^\s:\u0000-\u001f]+$/;

export function validatePolicy(value: unknown, kind: PolicyKind): Result<Policy> {
  const issues: Issue[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      issues: [
        issue('invalid_type', [], `expected a policy document (a mapping), got ${describe(value)}`),
      ],
    };
  }
  const root = safeParse(rootSchema, value);
  if (!root.success) issues.push(...fromZod(root.error, [], knownFields));
  const doc = value as Record<string, unknown>;

  if (!('version' in doc))
    issues.push(issue('missing_field', ['version'], 'missing `version`: write `version: 1`'));
  else if (doc.version !== 1)
    issues.push(
      issue(
        'invalid_value',
        ['version'],
        `unsupported version ${describe(doc.version)}: write \`version: 1\``,
      ),
    );

  if (kind === 'managed') {
    for (const key of ['workspace', 'spaces', 'modes'] as const) {
      if (key in doc) {
        issues.push(
          issue(
            'conflict',
            [key],
            `a managed policy applies to every workspace and holds no \`${key}\`${key === 'workspace' ? '' : `: a policy with \`${key}\` is a workspace policy and names its \`workspace\``}`,
          ),
        );
      }
    }
  } else if (!('workspace' in doc)) {
    issues.push(
      issue(
        'missing_field',
        ['workspace'],
        'missing `workspace`: name the workspace this policy belongs to (a managed policy omits it)',
      ),
    );
  } else if (typeof doc.workspace === 'string' && !ID.test(doc.workspace)) {
    issues.push(
      issue('invalid_value', ['workspace'], `\`${doc.workspace}\` is not a valid workspace id`),
    );
  }

  // Null-prototype records: a space or mode named `__proto__` is just a name.
  const spaces: Record<string, SpaceSettings> = Object.create(null) as Record<
    string,
    SpaceSettings
  >;
  if (kind === 'workspace' && isRecord(doc.spaces)) {
    for (const [id, raw] of Object.entries(doc.spaces)) {
      if (!ID.test(id))
        issues.push(issue('invalid_value', ['spaces', id], `\`${id}\` is not a valid space id`));
      const parsed = safeParse(spaceSchema, raw ?? {});
      if (!parsed.success) {
        issues.push(...fromZod(parsed.error, ['spaces', id], knownFields));
        continue;
      }
      const autonomy = parsed.data.autonomy;
      if (autonomy === undefined) spaces[id] = {};
      else if ((AUTONOMY_LEVELS as readonly string[]).includes(autonomy))
        spaces[id] = { autonomy: autonomy as Autonomy };
      else {
        issues.push(
          issue(
            'invalid_value',
            ['spaces', id, 'autonomy'],
            `unknown autonomy \`${autonomy}\`: use \`proposeOnly\`, \`actWithApproval\` or \`actFreely\`${didYouMean(autonomy, AUTONOMY_LEVELS)}`,
          ),
        );
      }
    }
  }

  /** The first claim of each id, as a place people read (`rules[3]`). */
  const ids = new Map<string, string>();
  /** Ids are unique across rules and presets (E29), also among rules with other problems. */
  const claimId = (rule: Rule | null, raw: unknown, path: readonly PathSegment[]): void => {
    const written = isRecord(raw) && typeof raw.id === 'string' ? raw.id : undefined;
    const id = rule?.id ?? written;
    if (id === undefined) return;
    const where = rule === null ? path : parsePath(rule.path);
    const generated = rule?.generatedId === true;
    const previous = ids.get(id);
    if (previous !== undefined) {
      const message = generated
        ? `this rule repeats ${previous} exactly: remove one`
        : `duplicate rule id \`${id}\`: also used by ${previous}`;
      issues.push(issue('duplicate_id', generated ? where : [...where, 'id'], message));
    } else ids.set(id, formatPath(where));
  };

  const modes: Record<string, ModeSettings> = Object.create(null) as Record<string, ModeSettings>;
  if (kind === 'workspace' && isRecord(doc.modes)) {
    for (const [name, raw] of Object.entries(doc.modes)) {
      if (!ID.test(name))
        issues.push(
          issue('invalid_value', ['modes', name], `\`${name}\` is not a valid mode name`),
        );
      const parsed = safeParse(modeSchema, raw ?? {});
      if (!parsed.success) {
        issues.push(...fromZod(parsed.error, ['modes', name], knownFields));
        continue;
      }
      const preset: Rule[] = [];
      (parsed.data.preset ?? []).forEach((rawRule, index) => {
        const rule = validateRule(
          rawRule,
          ['modes', name, 'preset', index],
          kind,
          issues,
          `mode:${name}`,
          `mode:${name}#${index}`,
        );
        if (rule !== null) preset.push(rule);
        claimId(rule, rawRule, ['modes', name, 'preset', index]);
      });
      const commandNet: string[] = [];
      (parsed.data.commandNet ?? []).forEach((entry, index) => {
        const words = commandPrefixWords(entry);
        if (Array.isArray(words)) commandNet.push(entry);
        else
          issues.push(
            issue(
              entry.trim() === '' ? 'empty_list' : 'bad_command',
              ['modes', name, 'commandNet', index],
              entry.trim() === '' ? 'empty command net entry' : words.problem,
            ),
          );
      });
      modes[name] = { preset, commandNet };
    }
  }

  const rules: Rule[] = [];
  if (Array.isArray(doc.rules)) {
    doc.rules.forEach((rawRule, index) => {
      const rule = validateRule(rawRule, ['rules', index], kind, issues, null, null);
      if (rule !== null) rules.push(rule);
      claimId(rule, rawRule, ['rules', index]);
    });
  }

  const freeze = kind === 'managed' ? managedFreezes(doc.freeze, issues) : [];
  if (kind === 'workspace' && 'freeze' in doc)
    issues.push(
      issue(
        'conflict',
        ['freeze'],
        '`freeze` belongs in the managed policy, which the installation operator keeps: an admin of the workspace freezes an agent with `warden agent freeze`',
      ),
    );

  const controlPaths: string[] = [];
  if (Array.isArray(doc.controlPaths)) {
    doc.controlPaths.forEach((entry: unknown, index) => {
      if (typeof entry !== 'string') return; // reported by the schema
      const problem =
        kind === 'managed' && entry.startsWith('!')
          ? 'a managed policy only adds to the paths that change what later commands run: it cannot take one out'
          : pathPatternProblem(entry);
      if (problem !== null)
        issues.push(issue('invalid_value', ['controlPaths', index], `\`${entry}\`: ${problem}`));
      else controlPaths.push(entry);
    });
  }
  const control = Array.isArray(doc.controlPaths) ? { controlPaths } : {};

  if (issues.length > 0) return { ok: false, issues: dedupe(issues) };
  const policy: Policy =
    kind === 'workspace'
      ? { kind, version: 1, workspace: doc.workspace as string, spaces, modes, rules, ...control }
      : {
          kind,
          version: 1,
          spaces,
          modes,
          rules,
          ...control,
          ...(freeze.length > 0 ? { freeze } : {}),
        };
  return { ok: true, value: policy };
}

/** A managed policy's `freeze` list: the workspaces, or agents in them, no call of which is allowed. */
function managedFreezes(raw: unknown, issues: Issue[]): ManagedFreeze[] {
  if (!Array.isArray(raw)) return [];
  if (raw.length > MAX_MANAGED_FREEZES) {
    issues.push(
      issue(
        'invalid_value',
        ['freeze'],
        `${raw.length} freezes: a managed policy holds at most ${MAX_MANAGED_FREEZES}`,
      ),
    );
    return [];
  }
  const out: ManagedFreeze[] = [];
  raw.forEach((entry, index) => {
    const path = ['freeze', index] as const;
    const parsed = safeParse(freezeSchema, entry);
    if (!parsed.success) {
      issues.push(...fromZod(parsed.error, [...path], knownFields));
      return;
    }
    const { workspace, agent, reason, since } = parsed.data;
    let bad = false;
    if (!ID.test(workspace)) {
      issues.push(
        issue(
          'invalid_value',
          [...path, 'workspace'],
          `\`${workspace}\` is not a valid workspace id`,
        ),
      );
      bad = true;
    }
    if (agent !== undefined && !ID.test(agent)) {
      issues.push(
        issue('invalid_value', [...path, 'agent'], `\`${agent}\` is not a valid agent id`),
      );
      bad = true;
    }
    let sinceMs: number | undefined;
    if (since !== undefined) {
      const at = parseTimestamp(since);
      if (typeof at === 'number') sinceMs = at;
      else {
        issues.push(issue('bad_timestamp', [...path, 'since'], at.problem));
        bad = true;
      }
    }
    if (bad) return;
    out.push({
      workspace,
      ...(agent === undefined ? {} : { agent }),
      ...(reason === undefined ? {} : { reason }),
      ...(since === undefined || sinceMs === undefined ? {} : { since, sinceMs }),
      path: `freeze[${index}]`,
    });
  });
  return out;
}

function validateRule(
  raw: unknown,
  path: readonly PathSegment[],
  kind: PolicyKind,
  issues: Issue[],
  presetScope: string | null,
  presetId: string | null,
): Rule | null {
  const at = (...more: PathSegment[]): PathSegment[] => [...path, ...more];
  if (!isRecord(raw)) {
    issues.push(issue('invalid_type', path, `expected a rule (a mapping), got ${describe(raw)}`));
    return null;
  }
  let data: RawRule;
  if (wellFormedRule(raw, presetScope === null)) {
    data = raw as RawRule;
  } else {
    const parsed = safeParse(presetScope === null ? ruleSchema : presetSchema, raw);
    if (!parsed.success) {
      issues.push(...fromZod(parsed.error, path, knownFields));
      return null;
    }
    data = parsed.data as RawRule;
  }
  const before = issues.length;

  if (data.id !== undefined) {
    const problem = idProblem(data.id);
    if (problem !== null) issues.push(issue('invalid_value', at('id'), problem));
  }

  let scope = presetScope ?? 'workspace';
  if (data.scope !== undefined) {
    const problem = scopeProblem(data.scope);
    if (problem === null) scope = data.scope;
    else issues.push(issue('bad_scope', at('scope'), problem));
  }

  const hasAction = data.action !== undefined;
  const hasCommand = data.command !== undefined;
  if (hasAction && hasCommand) {
    issues.push(
      issue(
        'conflict',
        path,
        'a rule names exactly one of `action` or `command`: this one names both',
      ),
    );
  } else if (!hasAction && !hasCommand) {
    issues.push(
      issue(
        'missing_field',
        path,
        'a rule names exactly one of `action` (a class) or `command` (a prefix): this one names neither',
      ),
    );
  }
  if (hasAction && !isActionClass(data.action)) {
    issues.push(
      issue(
        'unknown_class',
        at('action'),
        `unknown action class \`${data.action}\`${didYouMean(data.action as string, ACTION_CLASSES)}`,
      ),
    );
  }
  let commandWords: string[] | undefined;
  if (hasCommand) {
    const words = commandPrefixWords(data.command as string);
    if (Array.isArray(words)) commandWords = words;
    else issues.push(issue('bad_command', at('command'), words.problem));
  }

  const decision = data.decision;
  if (!(DECISIONS as readonly string[]).includes(decision)) {
    issues.push(
      issue(
        'invalid_value',
        at('decision'),
        `unknown decision \`${decision}\`: use \`allow\`, \`prompt\` or \`deny\`${didYouMean(decision, DECISIONS)}`,
      ),
    );
  }
  const enforcement = data.enforcement ?? 'hard';
  if (!(ENFORCEMENTS as readonly string[]).includes(enforcement)) {
    issues.push(
      issue(
        'invalid_value',
        at('enforcement'),
        `unknown enforcement \`${enforcement}\`: use \`advisory\`, \`soft\` or \`hard\`${didYouMean(enforcement, ENFORCEMENTS)}`,
      ),
    );
  } else if (enforcement === 'soft' && decision !== 'deny') {
    issues.push(
      issue(
        'conflict',
        at('enforcement'),
        '`soft` applies only to `deny`: a soft deny is a deny a human may override',
      ),
    );
  } else if (enforcement === 'advisory' && decision === 'allow') {
    issues.push(
      issue(
        'conflict',
        at('enforcement'),
        '`advisory` does not apply to `allow`: an advisory rule reports what it would have restricted',
      ),
    );
  }

  const allowedOrigins = kind === 'managed' ? ORIGINS : WORKSPACE_ORIGINS;
  const origin = data.origin ?? (kind === 'managed' ? 'managed' : 'user');
  if (!allowedOrigins.includes(origin)) {
    const message =
      origin === 'managed'
        ? '`managed` rules live in the managed policy file, not in a workspace policy'
        : `unknown origin \`${origin}\`: use ${allowedOrigins.map((o) => `\`${o}\``).join(', ')}${didYouMean(origin, allowedOrigins)}`;
    issues.push(issue('invalid_value', at('origin'), message));
  }

  let expiresAtMs: number | undefined;
  if (data.expiresAt !== undefined) {
    const parsedTime = parseTimestamp(data.expiresAt);
    if (typeof parsedTime === 'number') expiresAtMs = parsedTime;
    else issues.push(issue('bad_timestamp', at('expiresAt'), parsedTime.problem));
  }

  let when: Constraints | undefined;
  if (data.when !== undefined) {
    when = validateWhen(data.when, at('when'), issues);
  }

  if (issues.length > before) return null;
  const id = data.id ?? presetId ?? `r-${sha256Hex(canonicalJson(raw)).slice(0, 8)}`;
  // Built by assignment: a large policy has tens of thousands of rules.
  const rule: { -readonly [K in keyof Rule]: Rule[K] } = {
    id,
    generatedId: data.id === undefined,
    scope,
    decision: decision as Decision,
    enforcement: enforcement as Enforcement,
    origin: origin as Origin,
    path: formatPath(path),
  };
  if (hasAction) rule.action = data.action as NonNullable<Rule['action']>;
  if (commandWords !== undefined) {
    rule.command = data.command as string;
    rule.commandWords = commandWords;
  }
  if (when !== undefined) rule.when = when;
  if (data.expiresAt !== undefined && expiresAtMs !== undefined) {
    rule.expiresAt = data.expiresAt;
    rule.expiresAtMs = expiresAtMs;
  }
  if (data.note !== undefined) rule.note = data.note;
  if (data.examples !== undefined) {
    const examples: { -readonly [K in keyof RuleExamples]: RuleExamples[K] } = {};
    for (const key of ['allow', 'prompt', 'deny'] as const) {
      const list = data.examples[key];
      if (list !== undefined) examples[key] = list;
    }
    rule.examples = examples;
  }
  return rule;
}

function validateWhen(
  when: z.infer<typeof whenSchema>,
  path: PathSegment[],
  issues: Issue[],
): Constraints | undefined {
  if (Object.keys(when).length === 0) {
    issues.push(issue('empty_list', path, 'empty `when`: remove it, or name a constraint'));
    return undefined;
  }
  const check = (
    key: 'paths' | 'refs' | 'hosts' | 'commands',
    problemOf: (value: string) => string | null,
  ): void => {
    const values = when[key];
    if (values === undefined) return;
    values.forEach((value, index) => {
      const problem = problemOf(value);
      if (problem !== null) issues.push(issue('bad_pattern', [...path, key, index], problem));
    });
  };
  check('paths', pathPatternProblem);
  check('refs', refPatternProblem);
  check('hosts', (value) => {
    const parsed = parseHostPattern(value);
    return typeof parsed === 'string' ? parsed : null;
  });
  check('commands', (value) => {
    const words = commandPrefixWords(value.startsWith('!') ? value.slice(1) : value);
    return Array.isArray(words) ? null : words.problem;
  });
  return when as Constraints;
}

/** Rule ids name rules in decisions: no white space, and none of the names Warden gives (contracts §3). */
function idProblem(id: string): string | null {
  // eslint-disable-next-line no-control-regex -- ids must not hold control characters
  if (/[\s\u0000-\u001f]/.test(id))
    return `rule id \`${id}\` holds white space or control characters`;
  if (id === 'unparseable' || /^(default|modeNet|autonomy):/.test(id)) {
    return `rule id \`${id}\` is a name Warden gives its own decisions: choose another`;
  }
  return null;
}

const WORKSPACE_ORIGINS: readonly string[] = ORIGINS.filter((o) => o !== 'managed');

function scopeProblem(scope: string): string | null {
  if (scope === 'workspace') return null;
  const colon = scope.indexOf(':');
  const kind = colon < 0 ? scope : scope.slice(0, colon);
  const id = colon < 0 ? '' : scope.slice(colon + 1);
  if (kind === 'agent' || kind === 'space') {
    if (id === '') return `\`${scope}\` names no ${kind}: write \`${kind}:<id>\``;
    if (!ID.test(id)) return `\`${id}\` is not a valid ${kind} id`;
    return null;
  }
  if (kind === 'mode') {
    return `\`${scope}\` is not a rule scope: mode preset rules are written under \`modes.${id === '' ? '<name>' : id}.preset\``;
  }
  const suggestion = didYouMean(kind, ['workspace', 'agent', 'space']);
  return `unknown scope \`${scope}\`: use \`workspace\`, \`agent:<id>\` or \`space:<id>\`${suggestion}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dedupe(issues: readonly Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((item) => {
    const key = `${formatPath(item.path)}\u0000${item.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
