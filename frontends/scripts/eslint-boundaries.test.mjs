// @vitest-environment node
// The import boundaries, through ESLint's Node API with the project's own
// eslint.config.mjs: each fixture is source text linted as if it sat at the
// path given, so a violation is caught where `npm run lint` would catch it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const frontends = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const eslint = new ESLint({ cwd: frontends });

/** The boundary messages for `code` placed at `file` (relative to frontends/). */
async function boundaryProblems(file, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(frontends, file) });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'uplift/boundaries').map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['home/src/app/home-page.tsx', "import { RemoteModule } from '../../../shell/src/lib/remote';", /A remote never imports the shell/],
    ['account/src/features/account-settings/components/email-row.tsx', "import { useEnv } from '../../../../../shell/src/lib/env-context';", /A remote never imports the shell/],
    ['analytics/src/app/routes.tsx', "import { ConnectionsPage } from '../../../connections/src/features/connections/components/connections-page';", /Remotes never import each other/],
    ['shell/src/app/routes.tsx', "const Home = () => import('../../../home/src/app/home-page');", /The shell never imports a remote/],
    ['home/src/app/routes.tsx', "import { Button } from '../../../packages/platform/src/ui/button';", /Import '@uplift\/platform', not its files/],
    ['connections/src/app/routes.tsx', "import { App } from '@uplift/shell';", /'@uplift\/shell' is not shared/],
    ['packages/platform/src/ui/button.tsx', "import { useEnv } from '../../../../shell/src/lib/env-context';", /The platform never imports an app/],
    [
      'shell/src/features/dashboard/components/dashboard-page.tsx',
      "import { isActingOnBehalf } from '../../on-behalf/lib/on-behalf';",
      /Features do not import each other \('..\/..\/on-behalf\/lib\/on-behalf' is in feature 'on-behalf'\)/,
    ],
    ['home/src/features/report/components/report-view.tsx', "export { StudioPage } from '../../studio/components/studio-page';", /Features do not import each other/],
    ['shell/src/features/auth/lib/firebase.ts', "import { renderWithProviders } from '@uplift/platform/testing';", /is for tests only/],
    ['shell/src/lib/remote.test.tsx', "vi.mock('../../../home/src/app/home-page');", /The shell never imports a remote/],
    ['packages/platform/src/ui/button.tsx', "import { http } from '@uplift/platform';", /Inside the platform, import its modules by relative path/],
    ['packages/platform/src/api/sync-shopify.ts', "import { http } from '../http/client';", /take '..\/http\/client' from '@uplift\/platform'/],
    ['packages/platform/src/api/sync-shopify.ts', "import { categoryPath } from './category-path';", /take '.\/category-path' from '@uplift\/platform'/],
  ])('%s: %s is refused', async (file, code, message) => {
    const problems = await boundaryProblems(file, code);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it.each([
    ['home/src/app/home-page.tsx', "import { Button } from '@uplift/platform';"],
    ['account/src/features/account-settings/components/email-row.tsx', "import { TextField } from '@uplift/platform/text-field';"],
    ['home/src/features/report/components/report-view.tsx', "import { ScoreBadge } from '../../../lib/review/score-badge';"],
    ['home/src/features/report/components/report-view.tsx', "import { InsightsList } from './insights-list';"],
    ['shell/src/app/routes.tsx', "import { DashboardPage } from '../features/dashboard/components/dashboard-page';"],
    ['shell/src/features/dashboard/components/dashboard-page.tsx', "import { createQueryClient } from '../../../lib/query-client';"],
    ['shell/src/features/auth/components/guards.test.tsx', "import { renderWithProviders } from '@uplift/platform/testing';"],
    ['packages/platform/src/ui/button.tsx', "import { IMAGE_WIDTHS } from '../constants';"],
    ['packages/platform/src/api/studio-jobs.ts', "import { http } from '@uplift/platform';"],
    ['packages/platform/src/api/studio-images.ts', "import { listStudioJobsQueryOptions } from './studio-jobs';"],
    ['packages/platform/src/api/studio-images.ts', "import type { StudioJobJson } from './types';"],
    ['connections/src/features/connections/components/ga4-card.tsx', "import { useSyncGA4 } from '@uplift/platform/connections';"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await boundaryProblems(file, code)).toEqual([]);
  });
});
