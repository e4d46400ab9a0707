// Warden's decision engine: policy documents in, decisions out. Pure: no IO,
// no clock, no environment; every fact is an argument (see README).

export type { ActionClass, ActionClassInfo } from './model/classes.js';
export { ACTION_CLASSES, classInfo, defaultDecision, isActionClass } from './model/classes.js';
export type { Autonomy, Decision, Enforcement, Outcome } from './model/decision.js';
export { AUTONOMY_LEVELS, DECISIONS, ENFORCEMENTS, stricter } from './model/decision.js';
export type { Issue, IssueCode, PathSegment, Result } from './model/issue.js';
export { formatPath, issueText, parsePath } from './model/issue.js';
export type {
  Constraints,
  ManagedFreeze,
  ModeSettings,
  Origin,
  Policy,
  PolicyKind,
  Rule,
  RuleExample,
  RuleExamples,
  SpaceSettings,
} from './model/policy.js';
export { allRules } from './model/policy.js';
export type { ActionRequest, RequestArgs } from './model/request.js';
export type { AdvisoryHit, DecisionResult, FacetEntry, ManagedSource } from './model/result.js';

export { validatePolicy } from './document/policy.js';
export type { ExampleOptions } from './validate/examples.js';
export { checkExamples } from './validate/examples.js';
export { checkRequestAgainstPolicy, REQUEST_LIMITS, validateRequest } from './document/request.js';

export type { CompiledPolicy } from './compile/compile.js';
export { compilePolicy } from './compile/compile.js';

export type { DecideInput, Explained, FacetOutcome, NetHit } from './resolve/decide.js';
export { OBSERVED, decide, explainDecision } from './resolve/decide.js';
export { DEFAULT_CONTROL_PATHS } from './model/control-paths.js';
export type { Freeze, ManagedFreezeOf } from './resolve/frozen.js';
export { freezeReason, freezeRule, managedFreeze, managedFreezes } from './resolve/frozen.js';
export type { AreasInput } from './resolve/areas.js';
export { staticFolder, writableAreas } from './resolve/areas.js';

export type { ClassifierTable, PrefixEntry, WrapperEntry } from './classify/table.js';
export { DEFAULT_TABLE } from './classify/table.js';
export type { CommandAnalysis } from './classify/analyze.js';
export { analyzeCommand } from './classify/analyze.js';
export { MAX_COMMANDS, MAX_COMMAND_LENGTH, MAX_NESTING, MAX_WORDS } from './shell/limits.js';

export { parseTimestamp } from './util/time.js';
export type { Matcher } from './match/globs.js';
export { Globs, globProblem, isGlob } from './match/globs.js';
export type { HostPatternSet, HostValue } from './match/hosts.js';
export { compileHostPatterns, hostInSet, normalizeHost } from './match/hosts.js';
export type { PathPatternSet, PathValue } from './match/paths.js';
export { compilePathPatterns, normalizePath, pathInSet } from './match/paths.js';
export { canonicalJson } from './util/canonical-json.js';
export { sha256Hex } from './util/hash.js';

export { describeRule } from './explain/sentences.js';
export type { ClassPermission, Enumeration, EnumerateInput, RuleRef } from './explain/enumerate.js';
export { enumerate } from './explain/enumerate.js';
export type { OutrightDenial, OutrightInput } from './explain/outright.js';
export { outrightDenials } from './explain/outright.js';
export type { LintWarning, WarningCode } from './validate/lint.js';
export { lintPolicy } from './validate/lint.js';
export { extendClassifier } from './classify/config.js';
export { EXTRACTOR_DESCRIPTIONS } from './classify/programs.js';

export type { PromptFacet, RememberOffer, RuleDraft, ScopeOffer } from './remember/offer.js';
export {
  generalisePath,
  generaliseRef,
  rememberOffer,
  rememberScopes,
  withRules,
} from './remember/offer.js';
export type {
  DelegatedRun,
  DelegationAsk,
  DelegationGuard,
  DelegationVerdict,
  DelegatorRun,
} from './delegate/guards.js';
export {
  DEFAULT_MAX_DEPTH,
  DELEGATION_GUARDS,
  checkDelegation,
  lowerAutonomy,
} from './delegate/guards.js';
export { closest, didYouMean } from './util/did-you-mean.js';
export type { Disguise, DisguiseKind, Slot, SlotKey, Target } from './prove/disguises.js';
export {
  MAX_DISGUISES,
  disguises,
  hostSpellings,
  pathSpellings,
  refSpellings,
} from './prove/disguises.js';
export type {
  DisguiseVerdict,
  Proof,
  ProveInput,
  ProvedDisguise,
  RuleProof,
  RuleVerdict,
  SandboxFact,
} from './prove/prove.js';
export { provePolicy } from './prove/prove.js';
