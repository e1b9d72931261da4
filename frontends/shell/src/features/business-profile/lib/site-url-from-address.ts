import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import {
  getContentGenerationParamsQueryOptions,
  getCurrentReportQueryOptions,
  getInsightsQueryOptions,
  getRecentIdeasQueryOptions,
  getUserQueryOptions,
  isHttpError,
  trackEvent,
  updateContentGenerationParams,
  useSession,
} from '@uplift/platform';

/** `?siteUrl=`: the website a visitor arrived with (e.g. from /website-score). */
export const SITE_URL_PARAM = 'siteUrl';

/** How long to wait for a new account's category, which the sign-up event creates. */
const CATEGORY_WAIT = { attempts: 10, delayMs: 1_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The user's category id, waiting a little for a brand-new account's. */
async function categoryIdOf(queryClient: QueryClient, userId: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const user = await queryClient.fetchQuery({ ...getUserQueryOptions(userId), staleTime: 0, retry: false });
    if (user.categoryId) return user.categoryId;
    if (attempt >= CATEGORY_WAIT.attempts) throw new Error('the account has no business yet');
    await sleep(CATEGORY_WAIT.delayMs);
  }
}

/**
 * Saves `siteUrl` as the business's website unless one is saved already, so a
 * visitor who scored their site and then signed up lands with it saved and
 * reviewed. Returns 'saved', 'kept' (a website was already saved) or throws.
 */
export async function saveSiteUrlFromAddress(
  queryClient: QueryClient,
  userId: string,
  siteUrl: string,
): Promise<'saved' | 'kept'> {
  const categoryId = await categoryIdOf(queryClient, userId);
  let params;
  for (let attempt = 1; ; attempt++) {
    try {
      params = await queryClient.fetchQuery({ ...getContentGenerationParamsQueryOptions(categoryId), staleTime: 0, retry: false });
      break;
    } catch (error) {
      // A category created from the sign-up event may not be readable yet.
      if (!isHttpError(error) || error.status !== 404 || attempt >= CATEGORY_WAIT.attempts) throw error;
      await sleep(CATEGORY_WAIT.delayMs);
    }
  }
  // The Business profile's rules, fetched only when an address carries ?siteUrl=.
  const { normalisedSiteUrl } = await import('./save-business-profile');
  if (normalisedSiteUrl(params.siteUrl)) return 'kept';
  await updateContentGenerationParams(categoryId, {
    siteUrl: siteUrl.trim(),
    disableWeeklyEmail: params.disableWeeklyEmail ?? false,
  });
  // The Business profile opens on this cache and keeps what it first shows,
  // so it must hold the saved website now: the params read above would
  // otherwise stay in it until something observing them refetched.
  await queryClient
    .fetchQuery({ ...getContentGenerationParamsQueryOptions(categoryId), staleTime: 0, retry: false })
    .catch(() => queryClient.invalidateQueries({ queryKey: getContentGenerationParamsQueryOptions(categoryId).queryKey }));
  for (const options of [
    getCurrentReportQueryOptions(categoryId),
    getInsightsQueryOptions(categoryId),
    getRecentIdeasQueryOptions(categoryId),
  ]) {
    void queryClient.invalidateQueries({ queryKey: options.queryKey });
  }
  trackEvent('website_saved', { source: 'address' });
  return 'saved';
}

/**
 * Once someone is signed in with `?siteUrl=` in the address, saves it as their
 * website (if they have none) and drops it from the address. When the site
 * cannot be read, `onUnsaved` gets it, so the Business profile can open with
 * it filled in and the reason shown.
 */
export function useSiteUrlFromAddress(onUnsaved: (siteUrl: string) => void): void {
  const session = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const siteUrl = params.get(SITE_URL_PARAM)?.trim() || '';
  const userId = session.status === 'signedIn' ? session.user.uid : undefined;
  const handled = useRef<string | null>(null);
  const unsaved = useRef(onUnsaved);
  unsaved.current = onUnsaved;

  useEffect(() => {
    if (!userId || !siteUrl || handled.current === `${userId} ${siteUrl}`) return;
    handled.current = `${userId} ${siteUrl}`;
    saveSiteUrlFromAddress(queryClient, userId, siteUrl)
      .catch((error: unknown) => {
        console.warn('Could not save the website from the address', error);
        unsaved.current(siteUrl);
      })
      .finally(() =>
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.delete(SITE_URL_PARAM);
            return next;
          },
          { replace: true },
        ),
      );
  }, [userId, siteUrl, queryClient, setParams]);
}
