// Runs before each app's own modules (the first module of every entry, see
// webpack-config.mjs). zod compiles fast object parsers with `new Function`
// and probes for that the first time a schema is built; under the web's
// Content-Security-Policy (no 'unsafe-eval') the probe is refused and reported
// as a violation. jitless is zod's switch for such pages: same results, no probe.
import { config } from 'zod/v4/core';

config({ jitless: true });
