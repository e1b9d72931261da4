import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./vitest.setup.ts'],
    include: [
      '{packages/*,shell,home,analytics,connections,account}/src/**/*.test.{ts,tsx}',
      // The build and serve scripts (these run in node: `@vitest-environment node`).
      'scripts/**/*.test.mjs',
    ],
    restoreMocks: true,
    // make test runs these beside the Go suite on the same cores: a test
    // that types into a form took over 5 s (vitest's default) there while
    // it takes 0.3 s alone. A hang still fails, after 30 s.
    testTimeout: 30_000,
  },
});
