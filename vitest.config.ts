import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 20_000,
    // Every server the tests start checks each answer against its declared schema.
    env: { WARDEN_CHECK_ANSWERS: '1' },
    reporters: ['default'],
  },
});
