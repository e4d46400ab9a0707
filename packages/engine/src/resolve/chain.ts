// Resolves one facet through the scope chain (G8–G13, G16–G18, E6–E8, E23,
// E34, E37, E39): the narrowest scope with a matching rule decides; within it
// specificity, then strictness; an escalation alone does not stop the chain.
// A remembered rule never beats a deny of the standing policy (E41).

import type { CompiledLayer, CompiledRule, ScopeBucket } from '../compile/compile.js';
import { compareRules } from '../compile/compile.js';
import type { Condition } from '../compile/constraints.js';
import { evaluate } from '../compile/constraints.js';
import { defaultDecision } from '../model/classes.js';
import { strongest } from '../model/decision.js';
import type { Decision } from '../model/decision.js';
import { prefixMatches, wrapperMatch } from '../match/commands.js';
import { occursInOrder } from '../shell/render.js';
import type { Facet } from './facets.js';

export type Via =
  | 'rule'
  | 'default'
  | 'unparseable'
  | 'escalation'
  /** The built-in prompt for a write to a path that changes what later commands run (E44). */
  | 'control'
  /** An unreadable command that runs transactionally: decided on what it does (E44). */
  | 'transactional';

export interface Resolution {
  readonly decision: Decision | null;
  readonly rule: CompiledRule | null;
  /** A rule id, `default:<class>`, or `unparseable`. */
  readonly ruleName: string | null;
  readonly scope: string | null;
  readonly via: Via;
  /** What held (for an applied rule) or was unknown (for an escalation). */
  readonly conditions: readonly Condition[];
  /** The escalation came from the tokens of an unparseable command (E23). */
  readonly byTokens: boolean;
  /** When the decision is deny. */
  readonly enforcement: 'soft' | 'hard' | null;
  /** The strongest deny rule that escalated on this chain: it survives `actFreely` (E17b). */
  readonly escalatedDeny: 'soft' | 'hard' | null;
  /** That rule and its scope, to name the denial when the dial keeps it. */
  readonly escalatedDenyBy: { readonly rule: CompiledRule; readonly scope: string } | null;
  /** A remembered rule matched on the scopes walked (applied or escalated): E41 must look again. */
  readonly remembered: boolean;
  /** The remembered rule that would have decided, held back by a standing deny (E41). */
  readonly heldBack?: { readonly rule: string; readonly scope: string };
  /** The rule decided by a wrapper the command runs under, not by the command itself (E43). */
  readonly underWrapper?: true;
  /** The control path a `workspaceMutation` write touches, for its built-in prompt (E44). */
  readonly controlPath?: string;
}

export const NO_OPINION: Resolution = {
  decision: null,
  rule: null,
  ruleName: null,
  scope: null,
  via: 'rule',
  conditions: [],
  byTokens: false,
  enforcement: null,
  escalatedDeny: null,
  escalatedDenyBy: null,
  remembered: false,
};

interface Candidate {
  readonly rule: CompiledRule;
  readonly escalates: boolean;
  readonly conditions: readonly Condition[];
  readonly byTokens: boolean;
}

export interface ChainContext {
  readonly at: number;
  /** Include advisory rules, resolved as hard (the shadow resolution of G25). */
  readonly shadow: boolean;
  /** Tokens of the whole command line, for unparseable facets (E23, E35). */
  readonly tokens: () => readonly string[];
  readonly tokenSet: () => ReadonlySet<string>;
  /** Leave remembered rules out: the standing policy's own answer (E41). */
  readonly standing?: boolean;
}

function alive(rule: CompiledRule, ctx: ChainContext): boolean {
  return (
    (rule.expiresAtMs === null || ctx.at < rule.expiresAtMs) &&
    (ctx.shadow || !rule.advisory) &&
    (ctx.standing !== true || !rule.remembered)
  );
}

function consider(rule: CompiledRule, facet: Facet, out: Candidate[], unsure = false): void {
  const evaluation = evaluate(rule.constraints, facet.args, rule.restrictive);
  if (evaluation.verdict === 'fails') return;
  out.push({
    rule,
    escalates: unsure || evaluation.verdict === 'escalates',
    conditions: evaluation.conditions,
    byTokens: false,
  });
}

const NONE: readonly Candidate[] = [];

function candidates(bucket: ScopeBucket, facet: Facet, ctx: ChainContext): readonly Candidate[] {
  const out: Candidate[] = [];
  switch (facet.kind) {
    case 'class': {
      const rules = bucket.classRules(facet.cls);
      if (rules === undefined) return NONE;
      for (const rule of rules) {
        if (alive(rule, ctx)) consider(rule, facet, out);
      }
      return out;
    }
    case 'command': {
      const program = facet.words.program;
      const lists = [bucket.commands.get(program.basename)];
      if (!program.bare) lists.push(bucket.commands.get(program.written));
      const rules = lists.flatMap((list) => list ?? []);
      if (lists.filter((list) => list !== undefined).length > 1) rules.sort(compareRules);
      for (const rule of rules) {
        if (!alive(rule, ctx)) continue;
        if (facet.restrictiveOnly === true) {
          // A wrapper of another facet: restrictive rules only, its options spelled any way (E43);
          // a value the rule names that is computed here escalates to a prompt (E23).
          const match = rule.restrictive ? wrapperMatch(rule.words, facet.words) : 'no';
          if (match !== 'no') consider(rule, facet, out, match === 'maybe');
        } else if (prefixMatches(rule.words, facet.words, !rule.restrictive))
          consider(rule, facet, out);
      }
      return out;
    }
    case 'raw': {
      // An allow never applies to a command that cannot be read (G14b, E34).
      // The bucket's first words are few; the command's tokens may be many: look
      // each first word up in the tokens, never copy the tokens per facet.
      if (bucket.commands.size === 0) return out;
      const tokenSet = ctx.tokenSet();
      const leading = facet.leading?.program;
      const rules = new Set<CompiledRule>();
      for (const [key, list] of bucket.commands) {
        if (tokenSet.has(key) || key === leading?.basename || key === leading?.written)
          for (const rule of list) rules.add(rule);
      }
      if (rules.size === 0) return out;
      const tokens = ctx.tokens();
      for (const rule of [...rules].sort(compareRules)) {
        if (!rule.restrictive || !alive(rule, ctx)) continue;
        const words = rule.words;
        if (facet.leading !== null && prefixMatches(words, facet.leading, false))
          consider(rule, facet, out);
        else if (occursInOrder(words, tokens))
          out.push({ rule, escalates: true, conditions: [], byTokens: true });
      }
      return out;
    }
  }
}

function fromRule(candidate: Candidate, scopePrefix: string): Resolution {
  const { rule } = candidate;
  return {
    decision: candidate.escalates ? 'prompt' : rule.decision,
    rule,
    ruleName: rule.id,
    scope: scopePrefix === '' ? rule.scope : rule.managedScope,
    via: candidate.escalates ? 'escalation' : 'rule',
    conditions: candidate.conditions,
    byTokens: candidate.byTokens,
    enforcement:
      !candidate.escalates && rule.decision === 'deny' ? (rule.hard ? 'hard' : 'soft') : null,
    escalatedDeny: null,
    escalatedDenyBy: null,
    remembered: false,
  };
}

/**
 * Where each layer's buckets for one agent, space and mode were found: only
 * the index lookups are remembered (the layer never changes), never a
 * decision — every call still resolves every rule (G4). Bounded per layer.
 */
const BUCKET_CACHE = new WeakMap<CompiledLayer, Map<string, readonly ScopeBucket[]>>();
const BUCKET_CACHE_LIMIT = 4096;

/** The buckets of a layer along a request's scope chain, narrowest first. */
export function chainBuckets(
  layer: CompiledLayer,
  agent: string,
  space: string | undefined,
  mode: string | undefined,
): readonly ScopeBucket[] {
  let cache = BUCKET_CACHE.get(layer);
  if (cache === undefined) {
    cache = new Map();
    BUCKET_CACHE.set(layer, cache);
  }
  // Lengths keep the key unambiguous whatever the ids hold.
  const key = `${agent.length}:${agent}${space === undefined ? '-' : `${space.length}:${space}`}${mode ?? ''}`;
  let buckets = cache.get(key);
  if (buckets === undefined) {
    const found: ScopeBucket[] = [];
    const add = (scope: string): void => {
      const bucket = layer.scopes.get(scope);
      if (bucket !== undefined) found.push(bucket);
    };
    if (space !== undefined) add(`space:${space}`);
    add(`agent:${agent}`);
    add('workspace');
    if (mode !== undefined) add(`mode:${mode}`);
    if (cache.size >= BUCKET_CACHE_LIMIT) cache.clear();
    cache.set(key, found);
    buckets = found;
  }
  return buckets;
}

/**
 * Walks the chain's buckets (narrowest first). `fallback` is what decides when
 * no scope does: the built-in default, the unparseable prompt, or no opinion.
 */
export function resolveChain(
  buckets: readonly ScopeBucket[],
  facet: Facet,
  ctx: ChainContext,
  scopePrefix: string,
  fallback: Resolution,
): Resolution {
  let escalations: Candidate[] | null = null;
  let decided: Candidate | null = null;
  let remembered = false;
  for (const bucket of buckets) {
    const found = candidates(bucket, facet, ctx);
    let first: Candidate | null = null;
    let strictest: Candidate | null = null;
    let escalated = false;
    for (const c of found) {
      if (c.rule.remembered) remembered = true;
      if (c.escalates) {
        (escalations ??= []).push(c);
        escalated = true;
      } else {
        first ??= c;
        if (strictest === null || c.rule.rank > strictest.rule.rank) strictest = c;
      }
    }
    if (first === null) continue; // E37: an escalation alone does not stop the chain
    // Specificity, then strictness (the bucket's order) decides; but with an escalation in
    // the scope, the strictest rule applying as written meets it (E8).
    decided = escalated ? strictest : first;
    break;
  }
  const found = decided === null ? fallback : fromRule(decided, scopePrefix);
  const base = remembered ? { ...found, remembered } : found;
  if (escalations === null) return base;

  let escalatedDeny: 'soft' | 'hard' | null = null;
  let escalatedDenyBy: Resolution['escalatedDenyBy'] = null;
  for (const c of escalations) {
    if (c.rule.decision !== 'deny') continue;
    const strength = c.rule.hard ? 'hard' : 'soft';
    if (escalatedDenyBy === null || (strength === 'hard' && escalatedDeny !== 'hard')) {
      escalatedDenyBy = {
        rule: c.rule,
        scope: scopePrefix === '' ? c.rule.scope : c.rule.managedScope,
      };
    }
    escalatedDeny = strongest(escalatedDeny, strength);
  }
  if (base.decision === 'deny') {
    // E39: an escalated hard deny meeting a wider soft deny makes the denial hard.
    const enforcement = strongest(base.enforcement, escalatedDeny === 'hard' ? 'hard' : null);
    return { ...base, enforcement, escalatedDeny, escalatedDenyBy };
  }
  return {
    ...fromRule(escalations[0] as Candidate, scopePrefix),
    escalatedDeny,
    escalatedDenyBy,
    remembered,
  };
}

/** Strictness of a result, a hard deny above a soft one. */
function weight(resolution: Resolution): number {
  switch (resolution.decision) {
    case null:
    case 'allow':
      return 0;
    case 'prompt':
      return 1;
    case 'deny':
      return resolution.enforcement === 'hard' ? 3 : 2;
  }
}

/**
 * E41: a remembered rule never beats a deny of the standing policy. When no
 * remembered rule matched the facet, the chain's result stands (one walk, the
 * usual case); else the facet is resolved again without remembered rules, and
 * a deny there — or an escalated deny, which `actFreely` keeps (E17b) — is
 * kept, named by its own rule and scope. A remembered rule can still lift a
 * prompt: that is what it was written for (G23).
 */
export function resolveFacet(
  buckets: readonly ScopeBucket[],
  facet: Facet,
  ctx: ChainContext,
  scopePrefix: string,
  fallback: Resolution,
): Resolution {
  const own = resolveWithoutWrappers(buckets, facet, ctx, scopePrefix, fallback);
  if (facet.kind === 'class' || facet.wrappers.length === 0) return own;
  // A restrictive rule that names a wrapper (`deny sudo`) applies to what the wrapper runs:
  // each wrapper is resolved as a command of its own, restrictive rules only, and the
  // stricter result stands — a deny on the wrapper is never weakened by an allow on what it wraps.
  let result = own;
  for (const words of facet.wrappers) {
    const wrapper: Facet = {
      kind: 'command',
      name: facet.name,
      words,
      args: facet.args,
      wrappers: [],
      restrictiveOnly: true,
    };
    const found = resolveWithoutWrappers(buckets, wrapper, ctx, scopePrefix, NO_OPINION);
    if (found.decision !== null && weight(found) > weight(result))
      result = { ...found, underWrapper: true };
  }
  return result;
}

/** E41 for one facet, its wrappers left aside. */
function resolveWithoutWrappers(
  buckets: readonly ScopeBucket[],
  facet: Facet,
  ctx: ChainContext,
  scopePrefix: string,
  fallback: Resolution,
): Resolution {
  const own = resolveChain(buckets, facet, ctx, scopePrefix, fallback);
  if (!own.remembered) return own;
  const standing = resolveChain(buckets, facet, { ...ctx, standing: true }, scopePrefix, fallback);
  if (standing.decision === 'deny')
    return weight(own) > weight(standing) ? own : heldBack(standing, own);
  // The standing prompt came from a deny that could not be verified: a remembered allow
  // does not lift it either (what cannot be verified is not pre-approved, E17b).
  if (
    standing.escalatedDeny !== null &&
    own.decision !== 'deny' &&
    strongest(own.escalatedDeny, standing.escalatedDeny) !== own.escalatedDeny
  )
    return heldBack(standing, own);
  return own;
}

/** The standing result, naming the remembered rule it held back (for the reason). */
function heldBack(standing: Resolution, own: Resolution): Resolution {
  if (
    own.decision === 'deny' ||
    own.rule === null ||
    !own.rule.remembered ||
    own.ruleName === null ||
    own.scope === null
  )
    return standing;
  return { ...standing, heldBack: { rule: own.ruleName, scope: own.scope } };
}

const DEFAULTS = new Map<string, Resolution>();
const UNPARSEABLE: Resolution = {
  ...NO_OPINION,
  decision: 'prompt',
  ruleName: 'unparseable',
  scope: 'default',
  via: 'unparseable',
};

const TRANSACTIONAL: Resolution = {
  ...NO_OPINION,
  decision: 'allow',
  ruleName: 'transactional',
  scope: 'default',
  via: 'transactional',
};

/** How the defaults read the call beside its request (E44). */
export interface DefaultFacts {
  /** The call runs over a copy-on-write layer and is decided on what it does before that lands. */
  readonly transactional: boolean;
  /** Whether a `workspaceMutation` facet writes a path that changes what later commands run. */
  readonly control: (facet: Extract<Facet, { kind: 'class' }>) => string | null;
}

const NO_FACTS: DefaultFacts = { transactional: false, control: () => null };

/**
 * What decides a facet that no scope decides: the class's default; for a
 * write to a control path, a prompt naming it; for an unreadable command, a
 * prompt — or, when it runs transactionally, an allow, since what it does is
 * decided before it lands (E44).
 */
export function defaultResolution(facet: Facet, facts: DefaultFacts = NO_FACTS): Resolution {
  if (facet.kind === 'raw') return facts.transactional ? TRANSACTIONAL : UNPARSEABLE;
  if (facet.kind === 'class' && facet.cls === 'workspaceMutation') {
    const path = facts.control(facet);
    if (path !== null)
      return {
        ...NO_OPINION,
        decision: 'prompt',
        ruleName: 'default:workspaceMutation',
        scope: 'default',
        via: 'control',
        controlPath: path,
      };
  }
  if (facet.kind !== 'class') return NO_OPINION;
  let resolution = DEFAULTS.get(facet.cls);
  if (resolution === undefined) {
    resolution = {
      ...NO_OPINION,
      decision: defaultDecision(facet.cls),
      ruleName: `default:${facet.cls}`,
      scope: 'default',
      via: 'default',
    };
    DEFAULTS.set(facet.cls, resolution);
  }
  return resolution;
}
