// What "approve for N hours" would write (G23, G24): one allow rule per
// prompting facet, bound to the arguments the human saw and generalised one
// level, in the scope the approver picks. Pure: the gate stores the rules.

import type { CompiledPolicy, CompiledRule } from '../compile/compile.js';
import { compilePolicy } from '../compile/compile.js';
import type { Constraints, Policy } from '../model/policy.js';
import { isActionClass } from '../model/classes.js';
import { issueText } from '../model/issue.js';
import type { PathValue } from '../match/paths.js';
import type { DecideInput, Explained, FacetOutcome } from '../resolve/decide.js';
import { explainDecision } from '../resolve/decide.js';
import { chainBuckets } from '../resolve/chain.js';
import {
  SANDBOX_BECAUSE,
  SANDBOX_FACET,
  SANDBOX_OFF,
  SANDBOX_ONCE,
} from '../resolve/unsandboxed.js';
import { validatePolicy } from '../document/policy.js';
import { constraintPhrase, describeRule } from '../explain/sentences.js';
import { denyMeets, globExample } from './overlap.js';
import { Globs } from '../match/globs.js';
import { normalizePath, pathInSet } from '../match/paths.js';
import { refInSet } from '../match/refs.js';
import { hostInSet, normalizeHost } from '../match/hosts.js';

/** A rule as written in a policy document (contracts §1), without id and expiry. */
export interface RuleDraft {
  readonly scope: string;
  readonly action?: string;
  readonly command?: string;
  readonly decision: 'allow';
  readonly when?: Constraints;
}

export interface PromptFacet {
  readonly facet: string;
  readonly rule: string;
  readonly scope: string;
  readonly because?: string;
  /** Whether a remembered rule can be written for this facet. */
  readonly rememberable: boolean;
  /** Why not, when it cannot: only "approve once" is offered then. */
  readonly why?: string;
  /** The rule it would write, with `scope` left to the approver. */
  readonly draft?: Omit<RuleDraft, 'scope'>;
}

/** A deny of the standing policy that the remembered rule would meet, and that stays in force (E41). */
export interface StandingDeny {
  readonly rule: string;
  /** Where it lives, as in decisions: `workspace`, `space:<id>`, `mode:<name>`, `managed:<scope>`. */
  readonly scope: string;
  readonly enforcement: 'soft' | 'hard';
  /** The action class both rules are about. */
  readonly facet: string;
  /** The rule as one sentence (G19). */
  readonly sentence: string;
  /** A path, ref or host the drafted rule would allow and this deny still denies, when one is found. */
  readonly example?: string;
  /** What stays denied, in words: "`fileDelete` when any path matches `**\/*.key` stays denied: …". */
  readonly text: string;
}

export interface ScopeOffer {
  readonly scope: string;
  readonly rules: readonly RuleDraft[];
  /** Whether these rules would lift every prompt of this request (narrower scopes decide first). */
  readonly effective: boolean;
  readonly why?: string;
  /**
   * The standing denies these rules meet: a remembered rule never lifts them
   * (E41), so what they deny stays denied. Absent when there are none.
   */
  readonly staysDenied?: readonly StandingDeny[];
}

export interface RememberOffer {
  /** True when every prompting facet can be remembered and some scope lifts them all. */
  readonly rememberable: boolean;
  readonly why?: string;
  readonly facets: readonly PromptFacet[];
  readonly scopes: readonly ScopeOffer[];
}

/** The key a class's rules are about; a prompt whose key the request left unknown is remembered by nobody. */
const KEY_OF_CLASS: Readonly<Record<string, 'paths' | 'refs' | 'hosts'>> = {
  gitPush: 'refs',
  fileDelete: 'paths',
  fileWriteOutsideWorktree: 'paths',
  networkEgress: 'hosts',
};

const GLOB_CHARACTERS = /[*?[\]{}()!+@\\]/;

/** `feature/login` → `feature/**`; a ref without `/` grants only itself. */
export function generaliseRef(ref: string): string {
  const slash = ref.lastIndexOf('/');
  return slash < 0 ? ref : `${ref.slice(0, slash)}/**`;
}

/**
 * A path grants its parent folder (`src/a.ts` → `src/**`). An entry at the
 * top of the worktree or of the filesystem grants only itself and what is in
 * it (`build` → `build`, `build/**`): its parent is everything.
 */
export function generalisePath(path: PathValue): string[] | null {
  if (path.kind === 'escaped') return null;
  const text = path.kind === 'inside' ? path.rel : path.abs;
  if (text === '.' || text === '/') return null;
  const slash = text.lastIndexOf('/');
  const top = path.kind === 'inside' ? slash < 0 : slash <= 0;
  return top ? [text, `${text}/**`] : [`${text.slice(0, slash)}/**`];
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

type Draft = { ok: true; draft: Omit<RuleDraft, 'scope'> } | { ok: false; why: string };

function draftFor(outcome: FacetOutcome): Draft {
  const { facet, shown } = outcome;
  if (facet.kind === 'raw') return { ok: false, why: 'the command could not be read' };
  if (shown.via === 'escalation')
    return {
      ok: false,
      why: `rule \`${shown.ruleName ?? ''}\` needs arguments the request did not report`,
    };
  if (shown.scope?.startsWith('managed:') === true)
    return { ok: false, why: 'a managed rule asks here, and no workspace rule can lift it' };
  if (facet.kind === 'command')
    return {
      ok: false,
      why: 'a command rule covers every longer command too, so a remembered one would allow more than was asked',
    };
  const args = facet.args;
  const needed = KEY_OF_CLASS[facet.cls];
  if (needed !== undefined && args[needed] === undefined)
    return { ok: false, why: `the request did not say which ${needed} \`${facet.cls}\` touches` };
  const when: { -readonly [K in keyof Constraints]: Constraints[K] } = {};
  if (args.paths !== undefined && args.paths.length > 0) {
    const patterns: string[] = [];
    for (const path of args.paths) {
      const raw = path.kind === 'inside' ? path.rel : path.kind === 'outside' ? path.abs : path.raw;
      const granted = generalisePath(path);
      if (granted === null)
        return {
          ok: false,
          why: `path \`${raw}\` is the root itself or climbs out of an unknown root`,
        };
      if (GLOB_CHARACTERS.test(raw))
        return { ok: false, why: `path \`${raw}\` holds glob characters` };
      patterns.push(...granted);
    }
    when.paths = unique(patterns);
  }
  if (args.refs !== undefined && args.refs.length > 0) {
    const bad = args.refs.find((ref) => GLOB_CHARACTERS.test(ref));
    if (bad !== undefined) return { ok: false, why: `ref \`${bad}\` holds glob characters` };
    when.refs = unique(args.refs.map(generaliseRef));
  }
  if (args.hosts !== undefined && args.hosts.length > 0) {
    when.hosts = unique(args.hosts.map((h) => h.host));
  }
  if (args.count !== undefined) when.maxCount = args.count;
  if (args.cents !== undefined) when.maxCents = args.cents;
  const draft: { action: string; decision: 'allow'; when?: Constraints } = {
    action: facet.cls,
    decision: 'allow',
  };
  if (Object.keys(when).length > 0) draft.when = when;
  return { ok: true, draft };
}

/** The scopes an approver may pick for a request, narrowest first (G23). */
export function rememberScopes(request: { agent: string; space?: string }): string[] {
  const scopes: string[] = [];
  if (request.space !== undefined) scopes.push(`space:${request.space}`);
  scopes.push(`agent:${request.agent}`, 'workspace');
  return scopes;
}

/**
 * Adds validated rules to a policy, as the snapshot does with remembered rules.
 * Returns the problems instead when a rule is not valid.
 */
export function withRules(
  policy: Policy,
  rules: readonly Record<string, unknown>[],
): { ok: true; policy: Policy } | { ok: false; problems: string[] } {
  const checked = validatePolicy(
    {
      version: 1,
      ...(policy.workspace === undefined ? {} : { workspace: policy.workspace }),
      rules,
    },
    policy.kind,
  );
  if (!checked.ok) return { ok: false, problems: checked.issues.map(issueText) };
  return { ok: true, policy: { ...policy, rules: [...policy.rules, ...checked.value.rules] } };
}

function promptFacet(outcome: FacetOutcome): PromptFacet {
  const base = {
    facet: outcome.facet.name,
    rule: outcome.shown.ruleName ?? 'default',
    scope: outcome.shown.scope ?? 'default',
    ...(outcome.because === undefined ? {} : { because: outcome.because }),
  };
  const drafted = draftFor(outcome);
  return drafted.ok
    ? { ...base, rememberable: true, draft: drafted.draft }
    : { ...base, rememberable: false, why: drafted.why };
}

/**
 * Everything a human is offered for a prompt: each prompting facet, and per
 * scope the rules "approve for N hours" would write and whether they would
 * lift the prompt. `explained` and `input` are the decision that prompted.
 */
export function rememberOffer(explained: Explained, input: DecideInput): RememberOffer {
  const prompting = explained.facets.filter((o) => o.decision === 'prompt');
  const facets = prompting.map(promptFacet);
  // A call without the sandbox is answered by a human each time: no rule can answer it.
  if (explained.unsandboxed || input.unsandboxed === true)
    return {
      rememberable: false,
      why: `only "approve once": ${SANDBOX_ONCE}`,
      facets: [
        ...facets,
        {
          facet: SANDBOX_FACET,
          rule: SANDBOX_OFF,
          scope: 'default',
          because: SANDBOX_BECAUSE,
          rememberable: false,
          why: SANDBOX_ONCE,
        },
      ],
      scopes: [],
    };
  const blocked = facets.find((f) => !f.rememberable);
  if (facets.length === 0)
    return { rememberable: false, why: 'nothing prompts', facets, scopes: [] };
  if (blocked !== undefined)
    return {
      rememberable: false,
      why: `only "approve once": \`${blocked.facet}\`: ${blocked.why ?? ''}`,
      facets,
      scopes: [],
    };
  const denies = standingDenies(facets, input);
  const scopes = rememberScopes(input.request).map((scope) => {
    const offer = scopeOffer(scope, facets, input);
    return denies.length === 0 ? offer : { ...offer, staysDenied: denies };
  });
  const effective = scopes.some((s) => s.effective);
  return effective
    ? { rememberable: true, facets, scopes }
    : {
        rememberable: false,
        why: 'only "approve once": no remembered rule would lift this prompt',
        facets,
        scopes,
      };
}

function scopeOffer(scope: string, facets: readonly PromptFacet[], input: DecideInput): ScopeOffer {
  const rules: RuleDraft[] = facets.map((f) => ({
    scope,
    ...(f.draft as Omit<RuleDraft, 'scope'>),
  }));
  // Tried as what they would be: remembered rules, which never lift a standing deny (E41).
  const added = withRules(
    input.policy.policy,
    rules.map((rule) => ({ ...rule, origin: 'remembered' })) as unknown as Record<
      string,
      unknown
    >[],
  );
  if (!added.ok) return { scope, rules, effective: false, why: added.problems.join('; ') };
  const compiled: CompiledPolicy = compilePolicy(added.policy);
  const after = explainDecision({ ...input, policy: compiled });
  const still = after.facets.filter(
    (o) => o.decision === 'prompt' && facets.some((f) => f.facet === o.facet.name),
  );
  if (still.length === 0) return { scope, rules, effective: true };
  const first = still[0] as FacetOutcome;
  return {
    scope,
    rules,
    effective: false,
    why: `\`${first.facet.name}\` would still prompt: rule \`${first.shown.ruleName ?? ''}\` in ${first.shown.scope ?? 'default'} decides first`,
  };
}

function alive(rule: CompiledRule, at: number): boolean {
  return rule.expiresAtMs === null || at < rule.expiresAtMs;
}

/**
 * The standing denies the drafted rules meet (E41), on the request's chain in
 * the workspace's policy (mode preset included) and in the managed layer:
 * deny rules of the same class, not advisory, not remembered, alive now,
 * whose constraints could hold for a request the draft would allow.
 */
export function standingDenies(facets: readonly PromptFacet[], input: DecideInput): StandingDeny[] {
  const { request } = input;
  const layers: { policy: CompiledPolicy; managed: boolean; mode: string | undefined }[] = [
    { policy: input.policy, managed: false, mode: request.mode },
  ];
  if (input.managed !== undefined && input.managed !== null)
    layers.push({ policy: input.managed, managed: true, mode: undefined });
  const workspace = input.policy.policy.workspace;
  const globs = new Globs();
  const found: StandingDeny[] = [];
  const seen = new Set<string>();
  for (const f of facets) {
    const draft = f.draft;
    if (draft?.action === undefined || !isActionClass(draft.action)) continue;
    const cls = draft.action;
    for (const layer of layers) {
      const buckets = chainBuckets(layer.policy.layer, request.agent, request.space, layer.mode);
      for (const bucket of buckets) {
        for (const rule of bucket.classRules(cls) ?? []) {
          if (rule.decision !== 'deny' || rule.advisory || rule.remembered) continue;
          if (!alive(rule, input.at) || !denyMeets(rule, draft.when, request.worktree ?? null))
            continue;
          const scope = layer.managed ? rule.managedScope : rule.scope;
          const key = `${scope}\u0000${rule.id}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const enforcement = rule.hard ? 'hard' : 'soft';
          const when = rule.rule.when === undefined ? '' : constraintPhrase(rule.rule.when, true);
          const example = exampleOf(rule, draft.when, request.worktree ?? null, globs);
          const subject = example === null ? `\`${cls}\`` : `\`${cls}\` of \`${example}\``;
          const soft =
            enforcement === 'soft'
              ? ', though an overrider may let one call through with a reason'
              : '';
          found.push({
            rule: rule.id,
            scope,
            enforcement,
            facet: cls,
            sentence: describeRule(rule.rule, workspace, layer.managed),
            ...(example === null ? {} : { example }),
            text: `${subject} stays denied: rule \`${rule.id}\` (${enforcement}) in ${scope}${when === '' ? '' : ` applies${when}`}${soft}`,
          });
        }
      }
    }
  }
  return found;
}

function positives(values: readonly string[]): string[] {
  return values.filter((v) => !v.startsWith('!'));
}

/**
 * One value the drafted allow covers and the deny still denies — a path, ref
 * or host — to show the approver (`certs/x.key`); each is checked with the
 * real matchers, and null when none is found.
 */
function exampleOf(
  deny: CompiledRule,
  when: Constraints | undefined,
  worktree: string | null,
  globs: Globs,
): string | null {
  const d = deny.rule.when;
  const set = deny.constraints;
  if (d === undefined || when === undefined || set === null) return null;
  if (d.paths !== undefined && when.paths !== undefined && set.paths !== undefined) {
    for (const granted of positives(when.paths)) {
      for (const pattern of positives(d.paths)) {
        if (pattern.startsWith('/') !== granted.startsWith('/')) continue;
        const example = globExample(pattern, granted, globs);
        if (
          example !== null &&
          globs.matcher(granted)(example) &&
          pathInSet(normalizePath(example, worktree), set.paths, true)
        )
          return example;
      }
    }
  }
  if (d.refs !== undefined && when.refs !== undefined && set.refs !== undefined) {
    for (const granted of positives(when.refs)) {
      for (const pattern of positives(d.refs)) {
        const source = pattern.startsWith('refs/heads/')
          ? pattern.slice('refs/heads/'.length)
          : pattern;
        const example = globExample(source, granted, globs);
        if (example !== null && globs.matcher(granted)(example) && refInSet(example, set.refs))
          return example;
      }
    }
  }
  if (d.hosts !== undefined && when.hosts !== undefined && set.hosts !== undefined) {
    for (const raw of when.hosts) {
      const host = normalizeHost(raw);
      if (host !== null && hostInSet(host, set.hosts)) return host.host;
    }
  }
  return null;
}
