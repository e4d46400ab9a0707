// Provable rules: every deny and prompt rule of a policy, tried against the
// disguises of its target (disguises.ts) as the agent of the rule's scope
// would send them, each decided by the engine itself. A rule holds when every
// disguise is decided at least as strictly as the rule; it needs the sandbox
// when a disguise is seen only as starting a process; it is bypassable when a
// disguise the classifier did read is allowed. Dead rules come from the lint.
// Pure: the policy, the classifier, the time and the host's sandbox are arguments.

import type { ClassifierTable } from '../classify/table.js';
import type { CompiledPolicy } from '../compile/compile.js';
import type { ActionClass } from '../model/classes.js';
import type { Decision } from '../model/decision.js';
import { strictness } from '../model/decision.js';
import type { Rule } from '../model/policy.js';
import { allRules } from '../model/policy.js';
import type { ActionRequest } from '../model/request.js';
import type { Explained } from '../resolve/decide.js';
import { explainDecision } from '../resolve/decide.js';
import type { LintWarning } from '../validate/lint.js';
import { basename } from '../util/basename.js';
import { lintPolicy } from '../validate/lint.js';
import type { Disguise, DisguiseKind, Slot, SlotKey, Target } from './disguises.js';
import { MAX_DISGUISES, disguises, render } from './disguises.js';

/** What one disguise showed. */
export type DisguiseVerdict = 'holds' | 'sandbox' | 'weakened' | 'bypass';

/**
 * What a rule showed: it `holds`; a disguise is seen only as starting a
 * process (`sandbox`); a disguise asks instead of being denied (`weakened`);
 * a disguise the classifier read is allowed (`bypassable`); it never decides
 * (`dead`); or no command line reaches it (`unproved`).
 */
export type RuleVerdict = 'holds' | 'sandbox' | 'weakened' | 'bypassable' | 'dead' | 'unproved';

export interface ProvedDisguise {
  readonly command: string;
  readonly kind: DisguiseKind;
  readonly how: string;
  readonly decision: Decision;
  /** The rule (or default) that decided it, and its scope. */
  readonly rule: string;
  readonly scope: string;
  /** The classes the classifier read in it, `processSpawn` included. */
  readonly classes: readonly string[];
  /** Whether part of it could not be read (an unparseable facet). */
  readonly unreadable: boolean;
  readonly verdict: DisguiseVerdict;
}

/** The host's sandbox, as the caller found it: the engine never looks. */
export interface SandboxFact {
  /** The backend this host offers (`bwrap+socat`, `sandbox-exec`), or null. */
  readonly backend: string | null;
}

export interface RuleProof {
  readonly rule: string;
  readonly path: string;
  readonly scope: string;
  readonly decision: Decision;
  /** `command:<prefix>` or `class:<action>`. */
  readonly target: string;
  readonly verdict: RuleVerdict;
  /** The plain command line tried first, or null when none was. */
  readonly plain: string | null;
  /** How many disguises were decided (the plain spelling included). */
  readonly tried: number;
  /** The disguises that do not hold, worst first (all of them). */
  readonly findings: readonly ProvedDisguise[];
  /** Whether this host's sandbox covers what only the sandbox stops (set for `sandbox`). */
  readonly sandboxCovers: boolean | null;
  /** The lint's findings about this rule: why it is dead, or where it is shadowed. */
  readonly lint: readonly LintWarning[];
  /** Why the rule was not tried, for `unproved`. */
  readonly note?: string;
}

export interface Proof {
  readonly rules: readonly RuleProof[];
  readonly counts: Readonly<Record<RuleVerdict, number>>;
  readonly sandbox: SandboxFact;
}

export interface ProveInput {
  readonly policy: CompiledPolicy;
  /** The classifier that decides (the one the deployment uses). */
  readonly classifier: ClassifierTable;
  /** The time in epoch milliseconds. */
  readonly at: number;
  readonly sandbox: SandboxFact;
  /** The table the disguises are drawn from (default: `classifier`). */
  readonly knowledge?: ClassifierTable;
  /** The worktree the requests name (default `/srv/worktree`). */
  readonly worktree?: string;
  /** The cap of disguises per rule (default and maximum MAX_DISGUISES). */
  readonly limit?: number;
  /**
   * Also try the wrappers whose commands the table says cannot be read
   * (standard input, another host): asked by design, they show where a deny
   * only asks (default: not tried).
   */
  readonly unreadable?: boolean;
}

/** Lint codes that mean the rule never decides anything. */
const DEAD_CODES = new Set([
  'expired',
  'unreachable',
  'duplicate',
  'contradictory',
  'matches-nothing',
]);

const VERDICT_ORDER: Record<DisguiseVerdict, number> = {
  holds: 0,
  weakened: 1,
  sandbox: 2,
  bypass: 3,
};

export const DEFAULT_WORKTREE = '/srv/worktree';
const AGENT = 'prove';
const WORKSPACE = 'prove';

/** The first positive pattern of a list, made into a value it matches. */
function sampleOf(patterns: readonly string[] | undefined): string | null {
  const positive = patterns?.find((p) => !p.startsWith('!'));
  if (positive === undefined) return null;
  return positive
    .replace(/\{([^,}]*)[^}]*\}/g, '$1')
    .replace(/\[!?([^\]])[^\]]*\]/g, '$1')
    .replace(/\*\*/g, 'a')
    .replace(/\*/g, 'x')
    .replace(/\?/g, 'x');
}

type Values = Record<SlotKey, string>;

function slot(
  words: readonly string[],
  key: SlotKey,
  value: string,
  form: Slot['form'] = 'plain',
): Slot {
  return { index: words.length - 1, key, form, value };
}

/** A target for a class, from the command the classifier knows best for it. */
function classTarget(cls: ActionClass, v: Values, worktree: string): Target | string {
  switch (cls) {
    case 'fileDelete': {
      const words = ['rm', '-f', v.paths];
      return { words, slots: [slot(words, 'paths', v.paths)] };
    }
    case 'gitPush': {
      const words = ['git', 'push', 'origin', v.refs];
      return { words, slots: [slot(words, 'refs', v.refs)] };
    }
    case 'networkEgress': {
      const words = ['curl', `https://${v.hosts}/`];
      return { words, slots: [slot(words, 'hosts', v.hosts, 'url')] };
    }
    case 'gitCommit':
      return { words: ['git', 'commit', '-m', 'wip'], slots: [] };
    case 'packageInstall':
      return { words: ['npm', 'install', 'left-pad'], slots: [] };
    case 'prCreate':
      return { words: ['gh', 'pr', 'create', '--fill'], slots: [] };
    case 'prPublish':
      return { words: ['gh', 'pr', 'merge', '1'], slots: [] };
    case 'fileWriteOutsideWorktree': {
      const path =
        v.paths.startsWith('/') && !v.paths.startsWith(`${worktree}/`) ? v.paths : '/tmp/x';
      const words = ['touch', path];
      return { words, slots: [slot(words, 'paths', path)] };
    }
    case 'processSpawn':
      return 'every command starts a process: only the sandbox confines what it does';
    default:
      return `the classifier does not read \`${cls}\` in a command line`;
  }
}

/** The program `id`, run by a wrapper a rule names: what a wrapper rule is proved on (E43). */
const RUN = 'id';

/**
 * A rule that names a wrapper (`sudo -u root`, `su -c`, `find -exec`) is proved on the
 * wrapper running a command, as an agent would write it: `sudo -u root id`.
 */
function runUnder(words: readonly string[], table: ClassifierTable): readonly string[] {
  const base = basename(words[0] ?? '');
  const entry = Object.hasOwn(table.wrappers, base) ? table.wrappers[base] : undefined;
  if (entry === undefined) return words;
  switch (entry.kind) {
    case 'find':
      return [...words, RUN, '{}', ';'];
    case 'stdin':
    case 'remote':
      // The command comes on standard input or runs on another host: none to add.
      return words;
    default:
      return [...words, RUN];
  }
}

function targetOf(rule: Rule, worktree: string, table: ClassifierTable): Target | string {
  const when = rule.when;
  if (when?.maxCount !== undefined || when?.maxCents !== undefined)
    return 'a cap counts, it is not a spelling';
  if (when?.commands !== undefined) return 'its `commands` constraint names the commands itself';
  const defaultPath = rule.action === 'fileWriteOutsideWorktree' ? '/tmp/x' : 'notes.txt';
  const v: Values = {
    paths: sampleOf(when?.paths) ?? defaultPath,
    refs: sampleOf(when?.refs) ?? 'main',
    hosts: sampleOf(when?.hosts) ?? 'example.com',
  };
  if (rule.action !== undefined) return classTarget(rule.action, v, worktree);
  const named = rule.commandWords ?? [];
  const slots: Slot[] = [];
  const valued = when?.paths !== undefined || when?.refs !== undefined || when?.hosts !== undefined;
  const words = [...(valued ? named : runUnder(named, table))];
  for (const key of ['paths', 'refs', 'hosts'] as const) {
    if (when?.[key] === undefined) continue;
    words.push(v[key]);
    slots.push(slot(words, key, v[key]));
  }
  return { words, slots };
}

/** The request the agent of a rule's scope sends. */
function requestFor(
  rule: Rule,
  workspace: string,
  worktree: string,
  command: string,
): ActionRequest {
  const base = { workspace, agent: AGENT, worktree, command };
  const scope = rule.scope;
  if (scope.startsWith('agent:')) return { ...base, agent: scope.slice('agent:'.length) };
  if (scope.startsWith('space:')) return { ...base, space: scope.slice('space:'.length) };
  if (scope.startsWith('mode:')) return { ...base, mode: scope.slice('mode:'.length) };
  return base;
}

/** The decision as the policy gives it; a space that acts freely is judged before its dial. */
function decisionOf(explained: Explained): Decision {
  const result = explained.result;
  if (explained.autonomy !== 'actFreely' || result.decision !== 'allow') return result.decision;
  let decision: Decision = 'allow';
  for (const facet of explained.facets) {
    if (facet.decision !== null && strictness(facet.decision) > strictness(decision))
      decision = facet.decision;
  }
  return decision;
}

function judge(rule: Rule, disguise: Disguise, explained: Explained): ProvedDisguise {
  const decision = decisionOf(explained);
  const classes: string[] = [];
  let unreadable = false;
  let matched = false;
  for (const facet of explained.facets) {
    if (facet.facet.kind === 'class') classes.push(facet.facet.cls);
    else if (facet.facet.kind === 'raw') unreadable = true;
    if (facet.shown.ruleName === rule.id && facet.shown.scope === rule.scope) matched = true;
  }
  let verdict: DisguiseVerdict;
  if (strictness(decision) >= strictness(rule.decision)) verdict = 'holds';
  else if (!matched && !unreadable && classes.every((cls) => cls === 'processSpawn'))
    verdict = 'sandbox';
  else if (decision === 'allow') verdict = 'bypass';
  else verdict = 'weakened';
  return {
    command: disguise.command,
    kind: disguise.kind,
    how: disguise.how,
    decision,
    rule: explained.result.rule,
    scope: explained.result.scope,
    classes,
    unreadable,
    verdict,
  };
}

function ruleVerdict(findings: readonly ProvedDisguise[]): RuleVerdict {
  let worst: DisguiseVerdict = 'holds';
  for (const f of findings) if (VERDICT_ORDER[f.verdict] > VERDICT_ORDER[worst]) worst = f.verdict;
  return worst === 'bypass' ? 'bypassable' : worst;
}

function targetName(rule: Rule): string {
  return rule.action !== undefined
    ? `class:${rule.action}`
    : `command:${rule.commandWords?.join(' ') ?? ''}`;
}

/**
 * Proves every deny and prompt rule of a workspace policy (preset rules
 * included) against the disguises of its target, and lists the dead rules
 * of any decision. Linear in rules × the cap of disguises.
 */
export function provePolicy(input: ProveInput): Proof {
  const { policy: compiled, classifier, at } = input;
  const policy = compiled.policy;
  const knowledge = input.knowledge ?? classifier;
  const worktree = input.worktree ?? DEFAULT_WORKTREE;
  const limit = Math.max(1, Math.min(input.limit ?? MAX_DISGUISES, MAX_DISGUISES));
  const workspace = policy.workspace ?? WORKSPACE;
  const warnings = lintPolicy(policy, at);
  const byRule = new Map<string, LintWarning[]>();
  for (const w of warnings) {
    const key = `${w.rule}\u0000${w.path.replace(/\.when\..*$/, '')}`;
    const list = byRule.get(key);
    if (list === undefined) byRule.set(key, [w]);
    else list.push(w);
  }

  const rules: RuleProof[] = [];
  for (const rule of allRules(policy)) {
    const lint = byRule.get(`${rule.id}\u0000${rule.path}`) ?? [];
    const dead = lint.some((w) => DEAD_CODES.has(w.code));
    if (rule.decision === 'allow' && !dead) continue;
    const base = {
      rule: rule.id,
      path: rule.path,
      scope: rule.scope,
      decision: rule.decision,
      target: targetName(rule),
      lint,
    };
    const skipped = (verdict: RuleVerdict, note?: string): RuleProof => ({
      ...base,
      verdict,
      plain: null,
      tried: 0,
      findings: [],
      sandboxCovers: null,
      ...(note === undefined ? {} : { note }),
    });
    if (dead) {
      rules.push(skipped('dead'));
      continue;
    }
    if (rule.enforcement === 'advisory') {
      rules.push(skipped('unproved', 'an advisory rule only reports what it would decide'));
      continue;
    }
    const target = targetOf(rule, worktree, knowledge);
    if (typeof target === 'string') {
      rules.push(skipped('unproved', target));
      continue;
    }
    const findings: ProvedDisguise[] = [];
    const list = disguises(target, knowledge, limit, { unreadable: input.unreadable === true });
    for (const disguise of list) {
      const explained = explainDecision({
        policy: compiled,
        request: requestFor(rule, workspace, worktree, disguise.command),
        at,
        approverConnected: false,
        classifier,
      });
      const judged = judge(rule, disguise, explained);
      if (judged.verdict !== 'holds') findings.push(judged);
    }
    findings.sort((a, b) => VERDICT_ORDER[b.verdict] - VERDICT_ORDER[a.verdict]);
    const verdict = ruleVerdict(findings);
    rules.push({
      ...base,
      verdict,
      plain: render(target.words),
      tried: list.length,
      findings,
      sandboxCovers:
        verdict === 'sandbox' || findings.some((f) => f.verdict === 'sandbox')
          ? input.sandbox.backend !== null
          : null,
    });
  }
  const counts: Record<RuleVerdict, number> = {
    holds: 0,
    sandbox: 0,
    weakened: 0,
    bypassable: 0,
    dead: 0,
    unproved: 0,
  };
  for (const r of rules) counts[r.verdict] += 1;
  return { rules, counts, sandbox: input.sandbox };
}
