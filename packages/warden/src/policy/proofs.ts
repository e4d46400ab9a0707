// A policy's proof, computed off the thread that answers decisions (a worker
// thread where the package is built) and kept per policy: the console reads
// it each time its rules tab opens, and a policy of 500 rules takes seconds
// to prove. A proof is kept while the policy is the same and for at most a
// minute (rules expire with time); the same proof asked twice at once is
// computed once.

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ClassifierTable, Policy, Proof, SandboxFact } from '@warden/engine';
import { compilePolicy, provePolicy } from '@warden/engine';

/** What the proof thread is given: plain data, cloned across. */
export interface ProofJob {
  readonly policy: Policy;
  readonly classifier: ClassifierTable;
  readonly at: number;
  readonly sandbox: SandboxFact;
}

/** How long a proof is kept for the same policy. */
export const PROOF_TTL_MS = 60_000;
/** How many policies' proofs are kept. */
const KEPT = 16;

/** The built worker script, or null (running from source without a fresh build): prove in this thread then. */
function workerFile(): string | null {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) {
    const file = here.replace(/proofs\.js$/, 'proof-worker.js');
    return existsSync(file) ? file : null;
  }
  const src = here.replace(/[/\\]policy[/\\]proofs\.ts$/, '');
  const file = join(src, '..', 'dist', 'policy', 'proof-worker.js');
  if (!existsSync(file)) return null;
  return statSync(join(src, 'policy', 'proof-worker.ts')).mtimeMs > statSync(file).mtimeMs
    ? null
    : file;
}

function inWorker(script: string, job: ProofJob): Promise<Proof> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: job });
    worker.once('message', (proof: Proof) => {
      resolve(proof);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the proof thread stopped with code ${code}`));
    });
  });
}

export class ProofCache {
  private readonly kept = new Map<
    string,
    { readonly at: number; readonly proof: Promise<Proof> }
  >();
  private readonly script = workerFile();

  constructor(private readonly ttlMs = PROOF_TTL_MS) {}

  /** The proof of the policy `key` names (its hash), computed when none is kept. */
  prove(key: string, job: ProofJob): Promise<Proof> {
    const kept = this.kept.get(key);
    if (kept !== undefined && job.at - kept.at < this.ttlMs) return kept.proof;
    const proof =
      this.script === null
        ? Promise.resolve().then(() => provePolicy({ ...job, policy: compilePolicy(job.policy) }))
        : inWorker(this.script, job);
    this.kept.delete(key);
    this.kept.set(key, { at: job.at, proof });
    // A failed proof is not kept: the next request tries again.
    proof.catch(() => {
      if (this.kept.get(key)?.proof === proof) this.kept.delete(key);
    });
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return proof;
  }
}
