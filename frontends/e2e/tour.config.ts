import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The screenshot tour (`make tour`, tour/tour.spec.ts): the end-to-end
 * settings, its own folder (so `make test` never runs it), one browser at a
 * time, in order.
 */
export default defineConfig({
  ...base,
  testDir: './tour',
  fullyParallel: false,
  workers: 1,
  timeout: 300_000,
  reporter: [['list']],
  outputDir: 'test-results/tour',
});
