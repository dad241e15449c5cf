import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/pglite-template.global.ts'],
    // PGlite boots PostgreSQL in WASM per test file; a real server process takes seconds.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
