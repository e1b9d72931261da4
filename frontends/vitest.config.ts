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
  },
});
