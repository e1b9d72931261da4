/** Root key segments, so related queries can be invalidated together. */
export const userKeys = {
  all: ['users'] as const,
  detail: (userId: string) => [...userKeys.all, userId] as const,
};

export const billingKeys = {
  all: ['billing'] as const,
  tiers: () => [...billingKeys.all, 'subscriptionTiers'] as const,
};
