/**
 * The platform package: shared by the shell and every remote, and loaded once
 * as a Module Federation singleton (so the token store, session context and
 * query defaults are the same objects everywhere). Import only from here.
 */
export * from './constants';
export * from './env/env';
export * from './browser';
export * from './http/http-error';
export * from './http/client';
export * from './auth/token-store';
export * from './auth/session';
export * from './auth/account-security';
export * from './query/query-defaults';
export * from './api';
export * from './metrics';
export * from './format';
export * from './ui';
export * from './events/sse-parser';
export * from './events/category-events';
export * from './app-events';
export * from './studio-link';
export * from './third-party/load-script';
export * from './third-party/analytics';
export * from './third-party/widget-settings';
export * from './third-party/customer-reviews';
export * from './third-party/identity-verification';
