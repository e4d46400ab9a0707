// The thread a policy's proof is computed in: trying every deny and prompt
// rule against hundreds of disguises takes seconds at a team's size, and the
// thread that answers decisions must not wait for it. It gets the validated
// policy and the facts, compiles and proves, and posts the proof back.

import { parentPort, workerData } from 'node:worker_threads';
import { compilePolicy, provePolicy } from '@warden/engine';
import type { ProofJob } from './proofs.js';

const job = workerData as ProofJob;
parentPort?.postMessage(
  provePolicy({
    policy: compilePolicy(job.policy),
    classifier: job.classifier,
    at: job.at,
    sandbox: job.sandbox,
  }),
);
