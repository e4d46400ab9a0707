// The policy a decision reads: the workspace's current revision plus its live
// remembered rules, and the managed layer — the WARDEN_MANAGED_POLICY file
// when set (stored managed rules are then ignored, G29), else the stored one.
// Compiled once per change; each call still resolves it anew (G4). Changes
// from other processes arrive as notices and are polled for as well.

import { statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { CompiledPolicy, Freeze, ManagedSource, Policy } from '@warden/engine';
import {
  allRules,
  canonicalJson,
  compilePolicy,
  issueText,
  validatePolicy,
  withRules,
} from '@warden/engine';
import { loadPolicyFile } from '../policy/load.js';
import type { FreezeRecord, JsonValue, Store, StoredRule } from '../store/types.js';
import { GateFault } from './fault.js';

/** How long a snapshot is trusted before its version is read again. */
export const DEFAULT_REFRESH_MS = 250;

export interface PolicySnapshot {
  readonly workspace: string;
  readonly compiled: CompiledPolicy;
  /** The stored revision; null for a policy file. */
  readonly revision: number | null;
  /** SHA-256 of what decides: the document and the remembered rules in it. */
  readonly hash: string;
  readonly managed: CompiledPolicy | null;
  readonly managedSource: ManagedSource;
  readonly managedHash: string | null;
  /** Stored rules left out, and why (a collision or an invalid rule only tightens). */
  readonly skipped: readonly string[];
  /** The freezes in force: by agent id, and `''` for the whole workspace. */
  readonly freezes: ReadonlyMap<string, Freeze>;
}

const NO_FREEZES: ReadonlyMap<string, Freeze> = new Map();

/** The freeze that stops an agent: its own, else its workspace's; null when none does. */
export function freezeOf(snapshot: PolicySnapshot, agent: string): Freeze | null {
  if (snapshot.freezes.size === 0) return null;
  return snapshot.freezes.get(agentKey(agent)) ?? snapshot.freezes.get('') ?? null;
}

/**
 * An agent id as freezes compare it: one Unicode form (NFC), so an id spelled the other way
 * (`café` composed or decomposed, the same on screen) freezes the same agent.
 */
export function agentKey(agent: string): string {
  return agent.normalize('NFC');
}

function freezesOf(records: readonly FreezeRecord[]): ReadonlyMap<string, Freeze> {
  if (records.length === 0) return NO_FREEZES;
  return new Map(
    records.map((r) => [
      r.agent === null ? '' : agentKey(r.agent),
      {
        scope: r.agent === null ? 'workspace' : 'agent',
        by: r.by,
        reason: r.reason,
        since: Date.parse(r.frozenAt),
      },
    ]),
  );
}

export interface PolicySource {
  snapshot(workspace: string): Promise<PolicySnapshot>;
  /** The snapshot `snapshot` would answer, when it is at hand without reading anything. */
  peek?(workspace: string): PolicySnapshot | null;
  /** Forgets what is cached for a workspace: its next snapshot reads the store again. */
  invalidate(workspace: string): void;
  close(): void;
}

/** A managed policy file (G29): `env` when named by WARDEN_MANAGED_POLICY, `flag` by --managed. */
export interface ManagedFile {
  readonly file: string;
  readonly source: 'env' | 'flag';
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Reads a policy file whenever it changes on disk, else answers the last reading. */
class WatchedFile {
  private seen: { key: string; compiled: CompiledPolicy; hash: string } | null = null;

  constructor(
    readonly file: string,
    private readonly kind: 'workspace' | 'managed',
  ) {}

  read(): { compiled: CompiledPolicy; hash: string } {
    let key: string;
    try {
      const stat = statSync(this.file);
      key = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch (error) {
      throw new GateFault(
        this.kind === 'managed' ? 'managed-invalid' : 'policy-missing',
        `cannot read the ${this.kind === 'managed' ? 'managed policy' : 'policy'} \`${this.file}\`: ${(error as Error).message}`,
      );
    }
    if (this.seen !== null && this.seen.key === key) return this.seen;
    const loaded = loadPolicyFile(this.file, this.kind, () => '');
    if (!loaded.ok) {
      const problems = loaded.issues.map(
        (i) => `${i.path === '' ? '' : `${i.path}: `}${i.message}`,
      );
      throw new GateFault(
        this.kind === 'managed' ? 'managed-invalid' : 'policy-invalid',
        `the ${this.kind === 'managed' ? 'managed policy' : 'policy'} \`${this.file}\` is not valid: ${problems.join('; ')}`,
      );
    }
    this.seen = {
      key,
      compiled: loaded.value.compiled,
      hash: sha256(canonicalJson(loaded.value.policy)),
    };
    return this.seen;
  }
}

/**
 * A stored rule as decisions read it. A rule stored as remembered is read as
 * remembered whatever its document says, so it can never lift a deny of the
 * standing policy (E41).
 */
function asStored(rule: StoredRule): { [key: string]: JsonValue } {
  return rule.origin === 'remembered' && rule.rule.origin !== 'remembered'
    ? { ...rule.rule, origin: 'remembered' }
    : rule.rule;
}

/** Adds live stored rules to a policy; a rule that collides or is not valid is left out (that only tightens). */
export function addStoredRules(
  policy: Policy,
  stored: readonly StoredRule[],
): { policy: Policy; skipped: string[]; accepted: { [key: string]: JsonValue }[] } {
  const skipped: string[] = [];
  const ids = new Set(allRules(policy).map((r) => r.id));
  const accepted: { [key: string]: JsonValue }[] = [];
  for (const rule of stored) {
    if (ids.has(rule.id)) {
      skipped.push(`rule \`${rule.id}\`: its id is taken by a rule of the policy`);
      continue;
    }
    const read = asStored(rule);
    const alone = withRules(policy, [read]);
    if (!alone.ok) {
      skipped.push(`rule \`${rule.id}\`: ${alone.problems.join('; ')}`);
      continue;
    }
    ids.add(rule.id);
    accepted.push(read);
  }
  const added = withRules(policy, accepted);
  return { policy: added.ok ? added.policy : policy, skipped, accepted: added.ok ? accepted : [] };
}

interface Cached {
  readonly snapshot: PolicySnapshot;
  readonly version: number;
  readonly managedVersion: number;
  checkedAt: number;
}

export interface StoreSourceOptions {
  /** The managed layer's file; when given, stored managed rules are ignored (G29). */
  readonly managedFile?: ManagedFile | null;
  /** How long a snapshot is trusted before its version is read again, absent any notice. */
  readonly refreshMs?: number;
  readonly clock?: () => number;
  /** Told which stored rules a new snapshot left out, and why. */
  readonly onSkipped?: (workspace: string, skipped: readonly string[]) => void;
}

/** Policies as stored (the server, connected adapters). */
export class StorePolicySource implements PolicySource {
  private readonly cache = new Map<string, Cached>();
  private readonly building = new Map<string, Promise<PolicySnapshot>>();
  private readonly dirty = new Set<string>();
  private readonly managedFile: WatchedFile | null;
  private readonly managedSource: ManagedSource;
  private readonly refreshMs: number;
  private readonly clock: () => number;
  private readonly unsubscribe: () => void;
  private readonly onSkipped: StoreSourceOptions['onSkipped'];

  constructor(
    private readonly store: Store,
    options: StoreSourceOptions = {},
  ) {
    const managed = options.managedFile ?? null;
    this.managedFile = managed === null ? null : new WatchedFile(managed.file, 'managed');
    this.managedSource = managed === null ? null : managed.source;
    this.refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
    this.clock = options.clock ?? Date.now;
    this.onSkipped = options.onSkipped;
    this.unsubscribe = store.events.subscribe((event) => {
      if (event.topic !== 'policy') return;
      if (event.workspace === null) for (const key of this.cache.keys()) this.dirty.add(key);
      else this.dirty.add(event.workspace);
    });
  }

  peek(workspace: string): PolicySnapshot | null {
    const cached = this.cache.get(workspace);
    return cached !== undefined &&
      !this.dirty.has(workspace) &&
      this.clock() - cached.checkedAt < this.refreshMs
      ? cached.snapshot
      : null;
  }

  async snapshot(workspace: string): Promise<PolicySnapshot> {
    const cached = this.cache.get(workspace);
    const now = this.clock();
    if (
      cached !== undefined &&
      !this.dirty.has(workspace) &&
      now - cached.checkedAt < this.refreshMs
    )
      return cached.snapshot;
    const inflight = this.building.get(workspace);
    if (inflight !== undefined) return inflight;
    const work = this.refresh(workspace, cached, now).finally(() =>
      this.building.delete(workspace),
    );
    this.building.set(workspace, work);
    return work;
  }

  private async refresh(
    workspace: string,
    cached: Cached | undefined,
    now: number,
  ): Promise<PolicySnapshot> {
    this.dirty.delete(workspace);
    let version: number;
    let managedVersion: number;
    try {
      [version, managedVersion] = await Promise.all([
        this.store.stateVersion(workspace),
        this.managedFile === null ? this.store.stateVersion(null) : Promise.resolve(0),
      ]);
    } catch (error) {
      throw new GateFault('store', `the policy store is unavailable: ${(error as Error).message}`);
    }
    // A managed file is re-read when it changes on disk (cheap: one stat).
    const managedFromFile = this.managedFile?.read() ?? null;
    if (
      cached !== undefined &&
      cached.version === version &&
      cached.managedVersion === managedVersion &&
      (managedFromFile === null || managedFromFile.hash === cached.snapshot.managedHash)
    ) {
      cached.checkedAt = now;
      return cached.snapshot;
    }
    const snapshot = await this.build(workspace, now, managedFromFile);
    this.cache.set(workspace, { snapshot, version, managedVersion, checkedAt: now });
    return snapshot;
  }

  private async build(
    workspace: string,
    now: number,
    managedFromFile: { compiled: CompiledPolicy; hash: string } | null,
  ): Promise<PolicySnapshot> {
    let revision;
    let stored;
    let storedManaged = null;
    let freezes;
    try {
      [revision, stored, storedManaged, freezes] = await Promise.all([
        this.store.policies.current(workspace),
        this.store.rules.list(workspace, { at: now }),
        managedFromFile === null ? this.store.policies.currentManaged() : Promise.resolve(null),
        this.store.freezes.list(workspace),
      ]);
    } catch (error) {
      throw new GateFault('store', `the policy store is unavailable: ${(error as Error).message}`);
    }
    if (revision === null)
      throw new GateFault('policy-missing', `no policy is stored for workspace \`${workspace}\``);
    const validated = validatePolicy(revision.document, 'workspace');
    if (!validated.ok) {
      throw new GateFault(
        'policy-invalid',
        `revision ${revision.revision} of the policy of \`${workspace}\` is not valid: ${validated.issues.map(issueText).join('; ')}`,
      );
    }
    const { policy, skipped, accepted } = addStoredRules(validated.value, stored);
    if (skipped.length > 0) this.onSkipped?.(workspace, skipped);
    let managed: CompiledPolicy | null = managedFromFile?.compiled ?? null;
    let managedHash = managedFromFile?.hash ?? null;
    let managedSource: ManagedSource = managedFromFile === null ? null : this.managedSource;
    if (managedFromFile === null && storedManaged !== null) {
      const checked = validatePolicy(storedManaged.document, 'managed');
      if (!checked.ok)
        throw new GateFault(
          'managed-invalid',
          `revision ${storedManaged.revision} of the managed policy is not valid: ${checked.issues.map(issueText).join('; ')}`,
        );
      managed = compilePolicy(checked.value);
      managedHash = storedManaged.hash;
      managedSource = 'store';
    }
    return {
      workspace,
      compiled: compilePolicy(policy),
      revision: revision.revision,
      hash: sha256(canonicalJson({ document: revision.hash, rules: accepted })),
      managed,
      managedSource,
      managedHash,
      skipped,
      freezes: freezesOf(freezes),
    };
  }

  invalidate(workspace: string): void {
    this.dirty.add(workspace);
  }

  close(): void {
    this.unsubscribe();
  }
}

/** A policy file (standalone adapters): re-read whenever it changes on disk. */
export class FilePolicySource implements PolicySource {
  private readonly policy: WatchedFile;
  private readonly managed: WatchedFile | null;
  private readonly managedSource: ManagedSource;

  constructor(file: string, managedFile: ManagedFile | null = null) {
    this.policy = new WatchedFile(file, 'workspace');
    this.managed = managedFile === null ? null : new WatchedFile(managedFile.file, 'managed');
    this.managedSource = managedFile === null ? null : managedFile.source;
  }

  snapshot(workspace: string): Promise<PolicySnapshot> {
    try {
      const policy = this.policy.read();
      const owner = policy.compiled.policy.workspace;
      if (owner !== workspace)
        throw new GateFault(
          'request-invalid',
          `the call is for workspace \`${workspace}\`, and the policy \`${this.policy.file}\` is for \`${owner ?? ''}\``,
        );
      const managed = this.managed?.read() ?? null;
      return Promise.resolve({
        workspace,
        compiled: policy.compiled,
        revision: null,
        hash: policy.hash,
        managed: managed?.compiled ?? null,
        managedSource: managed === null ? null : this.managedSource,
        managedHash: managed?.hash ?? null,
        skipped: [],
        // A policy file has no admin to freeze an agent: freezes live in a server's store.
        freezes: NO_FREEZES,
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  invalidate(): void {}

  close(): void {}
}
