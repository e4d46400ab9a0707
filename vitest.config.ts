import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 20_000,
    // Every server the tests start checks each answer against its declared schema.
    // The resident runners the hooks' clients start stop soon after the last call.
    env: { WARDEN_CHECK_ANSWERS: '1', WARDEN_RUNNER_IDLE: '60' },
    reporters: ['default'],
  },
});
