// The decision (G3, G21, G22, G25–G32, E15–E22, E28, E33): every facet
// resolved on its own, merged strictest with the managed layer, then the
// mode's command net, the autonomy dial and a call's wish to run without the
// sandbox. Pure: the clock, the approver's presence and the policies are arguments.

import type { Unit } from '../classify/analyze.js';
import { DEFAULT_TABLE } from '../classify/table.js';
import type { ClassifierTable } from '../classify/table.js';
import type { CompiledPolicy } from '../compile/compile.js';
import type { Autonomy, Decision, Outcome } from '../model/decision.js';
import { strictness, strongest } from '../model/decision.js';
import { lowerAutonomy } from '../delegate/guards.js';
import type { ActionClass } from '../model/classes.js';
import type { ActionRequest } from '../model/request.js';
import type { AdvisoryHit, DecisionResult, FacetEntry, ManagedSource } from '../model/result.js';
import { netEntryMatches, wrapperMatches } from '../match/commands.js';
import { occursInOrder, rawTokens } from '../shell/render.js';
import { because } from '../explain/because.js';
import { renderReason } from '../explain/reason.js';
import type { ChainContext, DefaultFacts, Resolution } from './chain.js';
import { NO_OPINION, chainBuckets, defaultResolution, resolveFacet } from './chain.js';
import type { Facet } from './facets.js';
import type { PathValue } from '../match/paths.js';
import { describePath, normalizePath, pathInSet } from '../match/paths.js';
import { prepareRequest } from './facets.js';
import { SANDBOX_FACET, SANDBOX_OFF, sandboxEntry } from './unsandboxed.js';
import type { Freeze } from './frozen.js';
import { freezeEntry, freezeReason, freezeRule, freezeScope, managedFreeze } from './frozen.js';

export interface DecideInput {
  readonly policy: CompiledPolicy;
  /** The managed layer (G28), or null/absent when none is loaded. */
  readonly managed?: CompiledPolicy | null;
  readonly managedSource?: ManagedSource;
  /** A request that passed `validateRequest` and `checkRequestAgainstPolicy`. */
  readonly request: ActionRequest;
  /** The current time in epoch milliseconds. */
  readonly at: number;
  /** Whether an approver holds a live channel right now (G22). */
  readonly approverConnected: boolean;
  readonly classifier?: ClassifierTable;
  /**
   * A limit on the dial from outside the policy: a delegated run acts at
   * most at its delegator's autonomy (G35). `scope` names it, e.g. `run:<id>`.
   */
  readonly autonomyCeiling?: { readonly autonomy: Autonomy; readonly scope: string };
  /**
   * The call asks to run without the OS sandbox (Claude Code's
   * `dangerouslyDisableSandbox`). A fact beside the request, which is closed
   * (contracts §2). Such a call needs a human each time: an allow becomes a
   * prompt (`sandbox:off`) that no autonomy lifts and no remembered rule
   * answers; a prompt stays one, offered "approve once" only; a deny stays.
   */
  readonly unsandboxed?: boolean;
  /**
   * The agent, or its whole workspace, is frozen: every call is a hard deny
   * naming the freeze, whatever the rules, the remembered approvals, the mode
   * and the dial say (they are still resolved, and shown in `facets`). A
   * freeze the managed policy writes applies without being passed.
   */
  readonly frozen?: Freeze | null;
  /**
   * The call runs over a copy-on-write layer of its writable roots, and what
   * it really does is decided before it lands (E44): a command that cannot be
   * read whole, which would ask for that alone, is allowed to run so (rule
   * `transactional`) — without network, which the result's `transactional` says.
   */
  readonly transactional?: boolean;
  /**
   * The request is what a call was seen doing (E44), and its own decision
   * allowed these paths for these classes (null: whatever paths). A prompt on
   * a class that lies within them is not asked again (rule `observed`); a deny
   * still denies.
   */
  readonly observed?: {
    readonly allowed: Readonly<Partial<Record<ActionClass, readonly string[] | null>>>;
  };
}

/** One facet's journey, kept for the reason and for callers that need more than the JSON. */
export interface FacetOutcome {
  readonly facet: Facet;
  readonly own: Resolution;
  readonly managed: Resolution | null;
  /** The entry shown in `facets`: the managed result when it is at least as strict (E28, E33). */
  readonly shown: Resolution;
  /** Before the dial. */
  readonly decision: Decision | null;
  /** After the dial. */
  readonly final: Decision | null;
  readonly enforcement: 'soft' | 'hard' | null;
  /** `actFreely` turned this facet's prompt into allow. */
  readonly preApproved: boolean;
  /** `actFreely` kept an escalated deny a deny (E17b). */
  readonly keptDeny: boolean;
  /** The call's own decision allowed what this facet was seen doing (E44). */
  readonly observed: boolean;
  readonly unparseableReason?: string;
  /** The condition behind the shown result, in words (the entry's `because`). */
  readonly because: string | undefined;
}

export interface NetHit {
  readonly mode: string;
  readonly entry: string;
  readonly command: string;
}

export interface Explained {
  readonly result: DecisionResult;
  readonly facets: readonly FacetOutcome[];
  readonly net: NetHit | null;
  readonly autonomy: Autonomy | null;
  /** The call asked to run without the OS sandbox: only "approve once" can answer it. */
  readonly unsandboxed: boolean;
}

function entryOf(name: string, resolution: Resolution, text: string | undefined): FacetEntry {
  if (resolution.decision === null) return { facet: name, decision: null };
  const entry: {
    facet: string;
    decision: Decision;
    scope: string;
    rule: string;
    because?: string;
  } = {
    facet: name,
    decision: resolution.decision,
    scope: resolution.scope ?? 'default',
    rule: resolution.ruleName ?? '',
  };
  if (text !== undefined) entry.because = text;
  return entry;
}

function merge(own: Resolution, managed: Resolution | null): Resolution {
  if (managed === null || managed.decision === null) return own;
  if (own.decision !== null && strictness(managed.decision) < strictness(own.decision)) return own;
  return managed;
}

function findNetHit(
  policy: CompiledPolicy,
  request: ActionRequest,
  units: readonly Unit[],
  tokensOf: () => readonly string[],
): NetHit | null {
  if (request.mode === undefined || request.command === undefined) return null;
  const entries = policy.nets.get(request.mode) ?? [];
  if (entries.length === 0) return null;
  let raw = false;
  for (const unit of units) {
    if (unit.kind === 'effects') continue;
    if (unit.kind === 'raw') {
      raw = true;
      // What was read with confidence of an unreadable command meets the net as written (E43):
      // its wrappers and leading words, however they were spelled.
      const leading = unit.leading;
      for (const entry of entries) {
        if (
          (leading !== null && netEntryMatches(entry.words, leading)) ||
          unit.wrappers.some((words) => wrapperMatches(entry.words, words))
        )
          return { mode: request.mode, entry: entry.entry, command: unit.name };
      }
      continue;
    }
    for (const entry of entries) {
      // The net is restrictive: a wrapper it names (`sudo`) catches what the wrapper runs.
      if (
        netEntryMatches(entry.words, unit.words) ||
        unit.wrappers.some((words) => wrapperMatches(entry.words, words))
      )
        return { mode: request.mode, entry: entry.entry, command: unit.name };
    }
  }
  if (!raw) return null;
  // E14: for a command that cannot be read, the entry's words occurring in order is enough.
  const tokens = tokensOf();
  for (const entry of entries) {
    if (occursInOrder(entry.words, tokens))
      return { mode: request.mode, entry: entry.entry, command: request.command };
  }
  return null;
}

/**
 * The decision with everything that led to it, in named steps as the
 * specification tells them: read the request into facets, resolve each
 * facet in the scope chain beside the managed layer and apply the dial to
 * it (G21, G32, E28, E33), combine the facets under the mode's net and the
 * dial (E14, G30, E22), ask a human for a call without the sandbox (G2),
 * then a freeze over everything, and the reason in words.
 */
export function explainDecision(input: DecideInput): Explained {
  const read = readRequest(input);
  const dial = dialOf(input);
  const { outcomes, advisories } = resolveFacets(input, read, dial);
  const net = findNetHit(input.policy, input.request, read.units, read.tokensOf);
  const combined = combine(outcomes, net, dial);
  const unsandboxed = input.unsandboxed === true;
  if (unsandboxed) withoutSandbox(combined);
  const partial = assemble(input, outcomes, advisories, combined);
  const explained = { facets: outcomes, net, autonomy: dial.autonomy, unsandboxed };
  const stopped = frozenResult(input, partial, combined.facets);
  if (stopped !== null) return { ...explained, result: stopped };
  const reason = renderReason({
    result: partial,
    outcomes,
    namedBy: combined.namedBy,
    net,
    autonomy: dial.autonomy,
    request: input.request,
    limitedBy: dial.limitedBy,
    unsandboxed,
  });
  return { ...explained, result: { ...partial, reason } };
}

/** The request read into facets, its command's units and words, and the scope chains to resolve them in. */
interface ReadRequest {
  readonly facets: readonly Facet[];
  readonly units: readonly Unit[];
  /** Why each part of the command that could not be read was not (by facet name). */
  readonly unparseable: ReadonlyMap<string, string> | null;
  readonly tokensOf: () => readonly string[];
  readonly ownBuckets: ReturnType<typeof chainBuckets>;
  readonly managedBuckets: ReturnType<typeof chainBuckets>;
  readonly ctx: ChainContext;
  readonly shadowCtx: ChainContext;
}

function readRequest(input: DecideInput): ReadRequest {
  const { policy, request } = input;
  const managed = input.managed ?? null;
  const prepared = prepareRequest(request, input.classifier ?? DEFAULT_TABLE);
  const units = prepared.analysis?.units ?? [];
  let unparseable: Map<string, string> | null = null;
  for (const unit of units) {
    if (unit.kind === 'raw' && !unit.inner)
      (unparseable ??= new Map()).set(`command:${unit.name}`, unit.reason);
  }
  // The chain, narrowest first: space, agent, workspace, mode preset (the managed layer has no presets).
  const ownBuckets = chainBuckets(policy.layer, request.agent, request.space, request.mode);
  const managedBuckets =
    managed === null ? [] : chainBuckets(managed.layer, request.agent, request.space, undefined);
  let tokens: readonly string[] | null = null;
  const tokensOf = (): readonly string[] => (tokens ??= rawTokens(request.command ?? ''));
  let tokenSet: ReadonlySet<string> | null = null;
  const tokenSetOf = (): ReadonlySet<string> => (tokenSet ??= new Set(tokensOf()));
  const ctx: ChainContext = { at: input.at, shadow: false, tokens: tokensOf, tokenSet: tokenSetOf };
  return {
    facets: prepared.facets,
    units,
    unparseable,
    tokensOf,
    ownBuckets,
    managedBuckets,
    ctx,
    shadowCtx: { ...ctx, shadow: true },
  };
}

/** The autonomy dial as it acts on this call: the space's, lowered by a delegation's ceiling (G35). */
interface Dial {
  readonly autonomy: Autonomy | null;
  /** The scope the dial's entries name: the space, or the run whose ceiling lowered it. */
  readonly scope: string;
  readonly limitedBy: string | null;
}

function dialOf(input: DecideInput): Dial {
  const { policy, request } = input;
  const setting = request.space === undefined ? null : (policy.autonomy.get(request.space) ?? null);
  const ceiling = input.autonomyCeiling;
  if (ceiling !== undefined) {
    const current = setting ?? 'actWithApproval';
    const lowered = lowerAutonomy(current, ceiling.autonomy);
    if (lowered !== current)
      return { autonomy: lowered, scope: ceiling.scope, limitedBy: ceiling.scope };
  }
  return { autonomy: setting, scope: `space:${request.space ?? ''}`, limitedBy: null };
}

/** Every facet resolved on its own (G21), and the advisory rules that would have decided otherwise. */
function resolveFacets(
  input: DecideInput,
  read: ReadRequest,
  dial: Dial,
): { outcomes: FacetOutcome[]; advisories: AdvisoryHit[] } {
  const facts = defaultFacts(input);
  const outcomes: FacetOutcome[] = [];
  const advisories: AdvisoryHit[] = [];
  for (const facet of read.facets) {
    const outcome = resolveOne(input, read, dial, facet, facts);
    outcomes.push(outcome);
    const hit = advisoryHit(input, read, facet, facts, outcome);
    if (hit !== null) advisories.push(hit);
  }
  return { outcomes, advisories };
}

/**
 * One facet: its own chain's decision merged strictest with the managed
 * layer's (E28, E33), then the dial (`actFreely` pre-approves a prompt,
 * unless an escalated deny stands, E17b) and what the call was seen doing
 * within its own decision (E44).
 */
function resolveOne(
  input: DecideInput,
  read: ReadRequest,
  dial: Dial,
  facet: Facet,
  facts: DefaultFacts,
): FacetOutcome {
  const managed = input.managed ?? null;
  const own = resolveFacet(read.ownBuckets, facet, read.ctx, '', defaultResolution(facet, facts));
  const man =
    managed === null
      ? null
      : resolveFacet(read.managedBuckets, facet, read.ctx, 'managed:', NO_OPINION);
  const shown = merge(own, man);
  const decision = shown.decision;
  let enforcement: 'soft' | 'hard' | null = null;
  if (decision === 'deny') {
    enforcement = strongest(
      own.decision === 'deny' ? own.enforcement : null,
      man?.decision === 'deny' ? man.enforcement : null,
    );
  }
  let final = decision;
  let preApproved = false;
  let keptDeny = false;
  if (dial.autonomy === 'actFreely' && decision === 'prompt') {
    const escalatedDeny = strongest(own.escalatedDeny, man?.escalatedDeny ?? null);
    if (escalatedDeny !== null) {
      final = 'deny';
      enforcement = escalatedDeny;
      keptDeny = true;
    } else if (man?.decision !== 'prompt' && facet.kind !== 'raw') {
      final = 'allow';
      preApproved = true;
    }
  }
  let observed = false;
  const allowedBefore = input.observed?.allowed;
  if (
    final === 'prompt' &&
    !keptDeny &&
    allowedBefore !== undefined &&
    facet.kind === 'class' &&
    within(facet, allowedBefore[facet.cls], input.request.worktree ?? null)
  ) {
    final = 'allow';
    observed = true;
  }
  const reason = read.unparseable?.get(facet.name);
  const outcome: { -readonly [K in keyof FacetOutcome]: FacetOutcome[K] } = {
    facet,
    own,
    managed: man,
    shown,
    decision,
    final,
    enforcement,
    preApproved,
    keptDeny,
    observed,
    because: because(shown, reason),
  };
  if (reason !== undefined) outcome.unparseableReason = reason;
  return outcome;
}

/** An advisory rule that would have decided this facet otherwise, resolved in the shadow (G25). */
function advisoryHit(
  input: DecideInput,
  read: ReadRequest,
  facet: Facet,
  facts: DefaultFacts,
  outcome: FacetOutcome,
): AdvisoryHit | null {
  const { policy } = input;
  const managed = input.managed ?? null;
  // Only a layer with advisory rules can resolve differently in the shadow.
  if (!policy.layer.hasAdvisory && managed?.layer.hasAdvisory !== true) return null;
  const shadowOwn = policy.layer.hasAdvisory
    ? resolveFacet(read.ownBuckets, facet, read.shadowCtx, '', defaultResolution(facet, facts))
    : outcome.own;
  const shadowMan =
    managed?.layer.hasAdvisory === true
      ? resolveFacet(read.managedBuckets, facet, read.shadowCtx, 'managed:', NO_OPINION)
      : outcome.managed;
  const shadow = merge(shadowOwn, shadowMan);
  if (
    shadow.decision !== null &&
    shadow.decision !== outcome.decision &&
    shadow.rule?.advisory === true
  )
    return { rule: shadow.rule.id, facet: facet.name, wouldBe: shadow.decision };
  return null;
}

/** The call's decision from its facets, and what names it (the deciding rule and scope). */
interface Combined {
  decision: Decision;
  rule: string;
  scope: string;
  enforcement: 'soft' | 'hard' | null;
  /** The facet whose rule names the decision, when one does. */
  readonly namedBy: FacetOutcome | null;
  readonly facets: FacetEntry[];
  readonly prompts: string[];
}

/**
 * The strictest facet decides (G21), unless the mode's command net or a
 * `proposeOnly` space denies first (E14, G30); an allow the dial or the
 * call's own decision made is named by them (E22, E44).
 */
function combine(outcomes: readonly FacetOutcome[], net: NetHit | null, dial: Dial): Combined {
  const facets: FacetEntry[] = outcomes.map((o) => entryOf(o.facet.name, o.shown, o.because));
  const prompts = outcomes.filter((o) => o.decision === 'prompt').map((o) => o.facet.name);
  if (net !== null || dial.autonomy === 'proposeOnly') {
    let rule: string;
    let scope: string;
    if (net !== null) {
      rule = `modeNet:${net.mode}`;
      scope = `mode:${net.mode}`;
      facets.push({
        facet: 'modeNet',
        decision: 'deny',
        rule,
        scope,
        because: `\`${net.command}\` matches \`${net.entry}\``,
      });
    } else {
      rule = 'autonomy:proposeOnly';
      scope = dial.scope;
    }
    if (dial.autonomy === 'proposeOnly')
      facets.push({
        facet: 'autonomy',
        decision: 'deny',
        rule: 'autonomy:proposeOnly',
        scope: dial.scope,
      });
    return { decision: 'deny', rule, scope, enforcement: 'hard', namedBy: null, facets, prompts };
  }
  let decision: Decision = 'allow';
  for (const o of outcomes) {
    if (o.final !== null && strictness(o.final) > strictness(decision)) decision = o.final;
  }
  let rule: string;
  let scope: string;
  let enforcement: 'soft' | 'hard' | null = null;
  let namedBy: FacetOutcome | null = null;
  if (decision === 'allow' && outcomes.some((o) => o.preApproved)) {
    rule = 'autonomy:actFreely';
    scope = dial.scope;
  } else if (decision === 'allow' && outcomes.some((o) => o.observed)) {
    rule = OBSERVED;
    scope = 'default';
  } else {
    const candidates = outcomes.filter((o) => o.final === decision);
    namedBy =
      (decision === 'deny' ? candidates.find((o) => o.enforcement === 'hard') : undefined) ??
      candidates[0] ??
      null;
    const name = namedBy === null ? null : nameOf(namedBy);
    rule = name?.rule ?? 'default';
    scope = name?.scope ?? 'default';
    if (decision === 'deny') {
      enforcement = outcomes.some((o) => o.final === 'deny' && o.enforcement === 'hard')
        ? 'hard'
        : 'soft';
    }
  }
  if (rule === OBSERVED)
    facets.push({
      facet: OBSERVED,
      decision: 'allow',
      rule: OBSERVED,
      scope: 'default',
      because: OBSERVED_BECAUSE,
    });
  // The dial's entry stands where the dial decided (E22).
  if (rule === 'autonomy:actFreely')
    facets.push({
      facet: 'autonomy',
      decision: 'allow',
      rule: 'autonomy:actFreely',
      scope: dial.scope,
    });
  return { decision, rule, scope, enforcement, namedBy, facets, prompts };
}

/** Without the sandbox nothing is allowed unless a human says so, each time (G2, G22). */
function withoutSandbox(combined: Combined): void {
  combined.facets.push(sandboxEntry());
  combined.prompts.push(SANDBOX_FACET);
  if (combined.decision === 'allow') {
    combined.decision = 'prompt';
    combined.rule = SANDBOX_OFF;
    combined.scope = 'default';
  }
}

/** The result as the engine answers it, but its reason. */
function assemble(
  input: DecideInput,
  outcomes: readonly FacetOutcome[],
  advisories: readonly AdvisoryHit[],
  combined: Combined,
): Omit<DecisionResult, 'reason'> {
  const { decision, rule, scope, enforcement } = combined;
  const managed = input.managed ?? null;
  const outcome: Outcome =
    decision === 'prompt' ? (input.approverConnected ? 'ask' : 'deny') : decision;
  const managedEntries =
    managed === null
      ? null
      : outcomes
          .filter((o) => o.managed !== null && o.managed.decision !== null)
          .map((o) =>
            entryOf(
              o.facet.name,
              o.managed as Resolution,
              because(o.managed as Resolution, o.unparseableReason),
            ),
          );
  const transactional =
    decision === 'allow' &&
    outcomes.some((o) => o.final === 'allow' && o.shown.via === 'transactional');
  return {
    ...(transactional ? { transactional: true as const } : {}),
    decision,
    outcome,
    rule,
    scope,
    enforcement,
    overridable: decision === 'deny' && enforcement === 'soft',
    prompts: combined.prompts,
    facets: combined.facets,
    managed: managedEntries,
    managedSource: input.managedSource ?? null,
    advisories: [...advisories],
  };
}

/**
 * A freeze over everything: a hard deny naming it, whatever the rules,
 * the dial and the mode said (they stay in `facets`). The managed policy's
 * freeze first: it is the one no admin of the workspace lifts. Null when
 * nothing is frozen.
 */
function frozenResult(
  input: DecideInput,
  partial: Omit<DecisionResult, 'reason'>,
  facets: readonly FacetEntry[],
): DecisionResult | null {
  const { request } = input;
  const frozen =
    managedFreeze(input.managed?.policy ?? null, request.workspace, request.agent) ??
    input.frozen ??
    null;
  if (frozen === null) return null;
  const agent = request.agent;
  return {
    ...partial,
    decision: 'deny',
    outcome: 'deny',
    rule: freezeRule(frozen),
    scope: freezeScope(frozen, agent),
    enforcement: 'hard',
    overridable: false,
    facets: [...facets, freezeEntry(frozen, agent)],
    reason: freezeReason(frozen, agent),
  };
}

/** The rule that names an allow of what the call's own decision allowed already (E44). */
export const OBSERVED = 'observed';
const OBSERVED_BECAUSE = 'what the command did lies within what its own decision allowed';

/** The facts the built-in defaults read beside the request (E44). */
function defaultFacts(input: DecideInput): DefaultFacts {
  const sets = [input.policy.controlPaths, input.managed?.controlPaths].filter(
    (set): set is NonNullable<typeof set> => set !== undefined && set.positives.length > 0,
  );
  return {
    transactional: input.transactional === true,
    control: (facet) => {
      for (const path of facet.args.paths ?? [])
        if (sets.some((set) => pathInSet(path, set, true))) return describePath(path);
      return null;
    },
  };
}

/**
 * Whether every path a facet names lies at or under a path its call's
 * decision allowed (null: it allowed any). A facet that names no paths it
 * knows is not within.
 */
function within(
  facet: Extract<Facet, { kind: 'class' }>,
  allowed: readonly string[] | null | undefined,
  worktree: string | null,
): boolean {
  if (allowed === undefined) return false;
  if (allowed === null) return true;
  const paths = facet.args.paths;
  if (paths === undefined) return false;
  const roots = allowed.map((p) => pathKey(normalizePath(p, worktree)));
  return paths.every((path) => {
    const key = pathKey(path);
    return (
      key !== null &&
      roots.some(
        (root) =>
          root !== null &&
          (root === key || key.startsWith(root === '/' ? '/' : `${root}/`) || root === '.'),
      )
    );
  });
}

/** A path as one string to compare prefixes on: relative inside the root, absolute outside. */
function pathKey(path: PathValue): string | null {
  if (path.kind === 'inside') return path.rel;
  if (path.kind === 'outside') return path.abs;
  return null;
}

/** The rule and scope a facet's final decision names (E22). */
function nameOf(outcome: FacetOutcome): { rule: string; scope: string } {
  if (outcome.keptDeny) {
    const own = outcome.own.escalatedDenyBy;
    const managed = outcome.managed?.escalatedDenyBy ?? null;
    const by =
      own !== null && (managed === null || outcome.own.escalatedDeny === outcome.enforcement)
        ? own
        : managed;
    if (by !== null) return { rule: by.rule.id, scope: by.scope };
  }
  return { rule: outcome.shown.ruleName ?? 'default', scope: outcome.shown.scope ?? 'default' };
}

/** The decision for a request: the engine's one question, answered (G3). */
export function decide(input: DecideInput): DecisionResult {
  return explainDecision(input).result;
}
