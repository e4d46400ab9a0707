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

export function explainDecision(input: DecideInput): Explained {
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
  const shadowCtx: ChainContext = { ...ctx, shadow: true };

  const setting = request.space === undefined ? null : (policy.autonomy.get(request.space) ?? null);
  let autonomy: Autonomy | null = setting;
  let spaceScope = `space:${request.space ?? ''}`;
  let limitedBy: string | null = null;
  const ceiling = input.autonomyCeiling;
  if (ceiling !== undefined) {
    const current = setting ?? 'actWithApproval';
    const lowered = lowerAutonomy(current, ceiling.autonomy);
    if (lowered !== current) {
      autonomy = lowered;
      spaceScope = ceiling.scope;
      limitedBy = ceiling.scope;
    }
  }
  const actFreely = autonomy === 'actFreely';
  const facts = defaultFacts(input);
  const allowedBefore = input.observed?.allowed;

  const outcomes: FacetOutcome[] = [];
  const advisories: AdvisoryHit[] = [];
  for (const facet of prepared.facets) {
    const own = resolveFacet(ownBuckets, facet, ctx, '', defaultResolution(facet, facts));
    const man =
      managed === null ? null : resolveFacet(managedBuckets, facet, ctx, 'managed:', NO_OPINION);
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
    if (actFreely && decision === 'prompt') {
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
    if (
      final === 'prompt' &&
      !keptDeny &&
      allowedBefore !== undefined &&
      facet.kind === 'class' &&
      within(facet, allowedBefore[facet.cls], request.worktree ?? null)
    ) {
      final = 'allow';
      observed = true;
    }
    const reason = unparseable?.get(facet.name);
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
    outcomes.push(outcome);

    if (policy.layer.hasAdvisory || managed?.layer.hasAdvisory === true) {
      // Only a layer with advisory rules can resolve differently in the shadow.
      const shadowOwn = policy.layer.hasAdvisory
        ? resolveFacet(ownBuckets, facet, shadowCtx, '', defaultResolution(facet, facts))
        : own;
      const shadowMan =
        managed?.layer.hasAdvisory === true
          ? resolveFacet(managedBuckets, facet, shadowCtx, 'managed:', NO_OPINION)
          : man;
      const shadow = merge(shadowOwn, shadowMan);
      if (
        shadow.decision !== null &&
        shadow.decision !== decision &&
        shadow.rule?.advisory === true
      ) {
        advisories.push({ rule: shadow.rule.id, facet: facet.name, wouldBe: shadow.decision });
      }
    }
  }

  const facets: FacetEntry[] = outcomes.map((o) => entryOf(o.facet.name, o.shown, o.because));
  const prompts = outcomes.filter((o) => o.decision === 'prompt').map((o) => o.facet.name);
  const net = findNetHit(policy, request, units, tokensOf);

  let decision: Decision;
  let rule: string;
  let scope: string;
  let enforcement: 'soft' | 'hard' | null = null;
  let namedBy: FacetOutcome | null = null;
  if (net !== null || autonomy === 'proposeOnly') {
    decision = 'deny';
    enforcement = 'hard';
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
      scope = spaceScope;
    }
    if (autonomy === 'proposeOnly') {
      facets.push({
        facet: 'autonomy',
        decision: 'deny',
        rule: 'autonomy:proposeOnly',
        scope: spaceScope,
      });
    }
  } else {
    decision = 'allow';
    for (const o of outcomes) {
      if (o.final !== null && strictness(o.final) > strictness(decision)) decision = o.final;
    }
    const preApproved = outcomes.some((o) => o.preApproved);
    const observed = outcomes.some((o) => o.observed);
    if (decision === 'allow' && preApproved) {
      rule = 'autonomy:actFreely';
      scope = spaceScope;
    } else if (decision === 'allow' && observed) {
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
    if (rule === 'autonomy:actFreely') {
      facets.push({
        facet: 'autonomy',
        decision: 'allow',
        rule: 'autonomy:actFreely',
        scope: spaceScope,
      });
    }
  }

  // Without the sandbox nothing is allowed unless a human says so, each time (G2, G22).
  const unsandboxed = input.unsandboxed === true;
  if (unsandboxed) {
    facets.push(sandboxEntry());
    prompts.push(SANDBOX_FACET);
    if (decision === 'allow') {
      decision = 'prompt';
      rule = SANDBOX_OFF;
      scope = 'default';
    }
  }

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
  const partial = {
    ...(transactional ? { transactional: true as const } : {}),
    decision,
    outcome,
    rule,
    scope,
    enforcement,
    overridable: decision === 'deny' && enforcement === 'soft',
    prompts,
    facets,
    managed: managedEntries,
    managedSource: input.managedSource ?? null,
    advisories,
  };
  // The managed policy's freeze first: it is the one no admin of the workspace lifts.
  const frozen =
    managedFreeze(input.managed?.policy ?? null, request.workspace, request.agent) ??
    input.frozen ??
    null;
  if (frozen !== null) {
    const agent = request.agent;
    const stopped = {
      ...partial,
      decision: 'deny' as const,
      outcome: 'deny' as const,
      rule: freezeRule(frozen),
      scope: freezeScope(frozen, agent),
      enforcement: 'hard' as const,
      overridable: false,
      facets: [...facets, freezeEntry(frozen, agent)],
    };
    return {
      result: { ...stopped, reason: freezeReason(frozen, agent) },
      facets: outcomes,
      net,
      autonomy,
      unsandboxed,
    };
  }
  const reason = renderReason({
    result: partial,
    outcomes,
    namedBy,
    net,
    autonomy,
    request,
    limitedBy,
    unsandboxed,
  });
  return { result: { ...partial, reason }, facets: outcomes, net, autonomy, unsandboxed };
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
