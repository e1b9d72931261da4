import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { fakeGateway, json, renderHookWithProviders, signedInAs } from '@uplift/platform/testing';
import { createQueryClient } from '../../../lib/query-client';
import { useSiteUrlFromAddress } from './site-url-from-address';

const session = signedInAs('u1');


/** A fake gateway: the category appears after `categoryAfter` reads of the user (as the sign-up event creates it). */
function gateway(options: { savedSiteUrl?: string; categoryAfter?: number; failPatch?: boolean }) {
  let userReads = 0;
  let saved = options.savedSiteUrl;
  const patches: unknown[] = [];
  fakeGateway({
    'GET /internal/users/u1': () => {
      userReads++;
      return json({ id: 'u1', categoryId: userReads > (options.categoryAfter ?? 0) ? 'cat1' : '' });
    },
    'GET /internal/categories/cat1/business-data/contentGenerationParams': () => json({ siteUrl: saved, disableWeeklyEmail: true }),
    'PATCH /internal/categories/cat1/business-data/contentGenerationParams': (init) => {
      const patch = JSON.parse(String(init?.body)) as { siteUrl: string };
      patches.push(patch);
      if (options.failPatch) return json({ message: 'website cannot be read', code: 3 }, 400);
      saved = patch.siteUrl;
      return json({});
    },
  });
  return { patches };
}

function renderAt(path: string) {
  const onUnsaved = vi.fn();
  const queryClient = createQueryClient();
  const { location } = renderHookWithProviders(() => useSiteUrlFromAddress(onUnsaved), { path, session, queryClient });
  return { onUnsaved, location, queryClient };
}

beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));

describe('useSiteUrlFromAddress', () => {
  it("saves ?siteUrl= as a new account's website once its business exists, keeping its settings, and drops it from the address", async () => {
    const { patches } = gateway({ categoryAfter: 1 });
    const { location, queryClient } = renderAt('/?siteUrl=https%3A%2F%2Fshop.example&requireSignup=true');
    await waitFor(() => expect(patches).toEqual([{ siteUrl: 'https://shop.example', disableWeeklyEmail: true }]), {
      timeout: 5_000,
    });
    await waitFor(() => expect(location()).toBe('/?requireSignup=true'));
    // The Business profile opens on the cache: it holds the saved website, not the blank read before the save.
    const cached = queryClient.getQueriesData<{ siteUrl?: string }>({}).map(([, data]) => data?.siteUrl);
    expect(cached).toContain('https://shop.example');
  });

  it('never replaces a website the business already has', async () => {
    const { patches } = gateway({ savedSiteUrl: 'https://mine.example' });
    const { location } = renderAt('/?siteUrl=https%3A%2F%2Fother.example');
    await waitFor(() => expect(location()).toBe('/'));
    expect(patches).toEqual([]);
  });

  it('hands an unreadable website to the Business profile instead of losing it', async () => {
    gateway({ failPatch: true });
    const { onUnsaved } = renderAt('/?siteUrl=nope');
    await waitFor(() => expect(onUnsaved).toHaveBeenCalledWith('nope'));
  });
});
