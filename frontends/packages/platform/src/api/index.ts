export * from './types';
export * from './query-keys';
export * from './create-user';
export * from './get-user';
export * from './get-profile';
export * from './create-onboarding';
export * from './create-category';
export * from './get-metrics-category';
