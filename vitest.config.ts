import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    // A bound for a hang, not a speed check: on two cores, with two files at once, a test
    // that starts a server and six CLI processes takes 8 s, and a busy moment doubles that.
    testTimeout: 40_000,
    // Most test files wait on processes they start (servers, runners, agent CLIs, a
    // browser), so two files run at once even on two cores, where Vitest's default
    // (one fewer than the cores) would run one; more cores keep that default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Every server the tests start checks each answer against its declared schema.
    // The resident runners the hooks' clients start stop soon after the last call.
    env: { WARDEN_CHECK_ANSWERS: '1', WARDEN_RUNNER_IDLE: '60' },
    reporters: ['default'],
  },
});
