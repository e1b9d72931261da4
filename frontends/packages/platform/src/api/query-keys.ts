/** Root key segments, so related queries can be invalidated together. */
export const userKeys = {
  all: ['users'] as const,
  detail: (userId: string) => [...userKeys.all, userId] as const,
  auditLog: (userId: string, role: 'subject' | 'actor') => [...userKeys.detail(userId), 'auditLog', role] as const,
  /** Under the user, so signing out forgets it. */
  identityVerification: (userId: string) => [...userKeys.detail(userId), 'identityVerification'] as const,
};

/** Store owners as an uplifter searches them (internal/metricsUsers). */
export const metricsUserKeys = {
  all: ['metricsUsers'] as const,
  search: (query: string) => [...metricsUserKeys.all, 'search', query] as const,
};

export const billingKeys = {
  all: ['billing'] as const,
  tiers: () => [...billingKeys.all, 'subscriptionTiers'] as const,
};

/**
 * Everything under one category (the business), so a save or a live event can
 * invalidate the whole business at once or one part of it.
 */
export const categoryKeys = {
  all: ['categories'] as const,
  detail: (categoryId: string) => [...categoryKeys.all, categoryId] as const,
  label: (categoryId: string) => [...categoryKeys.detail(categoryId), 'label'] as const,
  contentGenerationParams: (categoryId: string) =>
    [...categoryKeys.detail(categoryId), 'contentGenerationParams'] as const,
  emailPreferences: (categoryId: string) => [...categoryKeys.detail(categoryId), 'emailPreferences'] as const,
  currentReport: (categoryId: string) => [...categoryKeys.detail(categoryId), 'currentReport'] as const,
  insights: (categoryId: string) => [...categoryKeys.detail(categoryId), 'insights'] as const,
  recentIdeas: (categoryId: string) => [...categoryKeys.detail(categoryId), 'recentIdeas'] as const,
  idea: (categoryId: string, ideaId: string) => [...categoryKeys.detail(categoryId), 'ideas', ideaId] as const,
  /** The store's numbers (Analytics, the daily report): invalidate this after an import or a sync. */
  storeData: (categoryId: string) => [...categoryKeys.detail(categoryId), 'storeData'] as const,
  storeMetricsLastDays: (categoryId: string, lastDays: number) =>
    [...categoryKeys.storeData(categoryId), 'metrics', 'lastDays', lastDays] as const,
  storeMetrics: (categoryId: string, from: string, to: string) =>
    [...categoryKeys.storeData(categoryId), 'metrics', from, to] as const,
  dailyReport: (categoryId: string) => [...categoryKeys.storeData(categoryId), 'dailyReport'] as const,
  connections: (categoryId: string) => [...categoryKeys.detail(categoryId), 'connections'] as const,
  ga4Properties: (categoryId: string) => [...categoryKeys.connections(categoryId), 'ga4Properties'] as const,
  /** The product image studio: its gallery, plan and previews. */
  studio: (categoryId: string) => [...categoryKeys.detail(categoryId), 'studio'] as const,
  /** The store website's products (the catalogue the studio picks photos from). */
  catalogueProducts: (categoryId: string) => [...categoryKeys.detail(categoryId), 'catalogueProducts'] as const,
  studioJobs: (categoryId: string) => [...categoryKeys.studio(categoryId), 'jobs'] as const,
  studioPlan: (categoryId: string) => [...categoryKeys.studio(categoryId), 'plan'] as const,
  studioResultPreview: (categoryId: string, resultId: string) =>
    [...categoryKeys.studio(categoryId), 'resultPreview', resultId] as const,
  studioImagePreview: (categoryId: string, imageId: string) =>
    [...categoryKeys.studio(categoryId), 'imagePreview', imageId] as const,
};

export const websiteScoreKeys = {
  all: ['websiteScore'] as const,
  byUrl: (url: string) => [...websiteScoreKeys.all, url] as const,
};
