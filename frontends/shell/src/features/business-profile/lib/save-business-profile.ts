import type { QueryClient } from '@tanstack/react-query';
import {
  getCategoryLabelQueryOptions,
  getContentGenerationParamsQueryOptions,
  getCurrentReportQueryOptions,
  getEmailPreferencesQueryOptions,
  getInsightsQueryOptions,
  getRecentIdeasQueryOptions,
  invalidateCampaignIdeas,
  siteUrlForWire,
  trackEvent,
  updateCategoryLabel,
  updateContentGenerationParams,
  updateEmailPreferences,
} from '@uplift/platform';

/** What the dialog edits; the toggles are "on" when the email is wanted. */
export interface BusinessProfileValues {
  name: string;
  website: string;
  weeklyWebsiteReview: boolean;
  dailyBusinessReport: boolean;
  /** The business's IANA time zone; '' while none is set. */
  timeZone: string;
  /** Up to three competitor websites (an extension of the spec's fields); '' for an empty box. */
  competitors: string[];
}

/** The competitor boxes as the list the server keeps: trimmed, blanks left out. */
export function competitorList(boxes: string[]): string[] {
  return boxes.map((box) => box.trim()).filter(Boolean);
}

/** The saved website as a comparable value: unset, empty and null all mean "none". */
export function normalisedSiteUrl(siteUrl: string | null | undefined): string | null {
  return siteUrlForWire(siteUrl ?? '');
}

/**
 * The save of spec section 4: label, params (empty website as null) and the
 * daily-report switch; then, when the website changed, the old ideas are
 * invalidated. Any failure rejects, so the dialog stays open with its message.
 * Finally the dialog's three reads are refetched (awaited, so nothing stale
 * shows when it closes) and the report data, which a new website changes, is
 * marked stale.
 */
export async function saveBusinessProfile(
  queryClient: QueryClient,
  categoryId: string,
  values: BusinessProfileValues,
  savedSiteUrl: string | null | undefined,
  savedTimeZone = '',
  savedCompetitors: string[] = [],
): Promise<void> {
  const siteUrl = siteUrlForWire(values.website);
  // The time zone (an extension of the spec's fields) goes only when changed.
  const timeZone = values.timeZone && values.timeZone !== savedTimeZone ? { timeZone: values.timeZone } : {};
  await updateCategoryLabel(categoryId, values.name.trim());
  // Competitors too go only when changed; a changed list starts a new review.
  const list = competitorList(values.competitors);
  const competitors =
    list.join('\n') !== savedCompetitors.join('\n') ? { competitors: { urls: list } } : {};
  await updateContentGenerationParams(categoryId, {
    siteUrl,
    disableWeeklyEmail: !values.weeklyWebsiteReview,
    ...timeZone,
    ...competitors,
  });
  await updateEmailPreferences(categoryId, { disableBusinessReport: !values.dailyBusinessReport });
  if (siteUrl !== normalisedSiteUrl(savedSiteUrl)) {
    await invalidateCampaignIdeas(categoryId);
    if (siteUrl) trackEvent('website_saved', { source: 'business_profile' });
  }

  await Promise.all(
    [
      getCategoryLabelQueryOptions(categoryId).queryKey,
      getContentGenerationParamsQueryOptions(categoryId).queryKey,
      getEmailPreferencesQueryOptions(categoryId).queryKey,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
  // Report, ideas and insights follow the business; not awaited, Home refetches them itself.
  for (const queryKey of [
    getCurrentReportQueryOptions(categoryId).queryKey,
    getInsightsQueryOptions(categoryId).queryKey,
    getRecentIdeasQueryOptions(categoryId).queryKey,
  ]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}
