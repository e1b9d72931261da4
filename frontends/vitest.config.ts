import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./vitest.setup.ts'],
    include: ['{packages/*,shell,home,analytics,connections,account}/src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
