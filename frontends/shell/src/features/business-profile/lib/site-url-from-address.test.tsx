import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { renderHookWithProviders, signedInAs } from '@uplift/platform/testing';
import { createQueryClient } from '../../../lib/query-client';
import { useSiteUrlFromAddress } from './site-url-from-address';

const session = signedInAs('u1');

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake gateway: the category appears after `categoryAfter` reads of the user (as the sign-up event creates it). */
function gateway(options: { savedSiteUrl?: string; categoryAfter?: number; failPatch?: boolean }) {
  let userReads = 0;
  const patches: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`;
      switch (key) {
        case 'GET /internal/users/u1':
          userReads++;
          return json({ id: 'u1', categoryId: userReads > (options.categoryAfter ?? 0) ? 'cat1' : '' });
        case 'GET /internal/categories/cat1/business-data/contentGenerationParams':
          return json({ siteUrl: options.savedSiteUrl, disableWeeklyEmail: true });
        case 'PATCH /internal/categories/cat1/business-data/contentGenerationParams':
          patches.push(JSON.parse(String(init?.body)));
          if (options.failPatch) return json({ message: 'website cannot be read', code: 3 }, 400);
          return json({});
        default:
          return json({}, 200);
      }
    }),
  );
  return { patches };
}

function renderAt(path: string) {
  const onUnsaved = vi.fn();
  const { location } = renderHookWithProviders(() => useSiteUrlFromAddress(onUnsaved), {
    path,
    session,
    queryClient: createQueryClient(),
  });
  return { onUnsaved, location };
}

beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));

describe('useSiteUrlFromAddress', () => {
  it("saves ?siteUrl= as a new account's website once its business exists, keeping its settings, and drops it from the address", async () => {
    const { patches } = gateway({ categoryAfter: 1 });
    const { location } = renderAt('/?siteUrl=https%3A%2F%2Fshop.example&requireSignup=true');
    await waitFor(() => expect(patches).toEqual([{ siteUrl: 'https://shop.example', disableWeeklyEmail: true }]), {
      timeout: 5_000,
    });
    await waitFor(() => expect(location()).toBe('/?requireSignup=true'));
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
