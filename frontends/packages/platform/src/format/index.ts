export * from './store-format';
export * from './time-zones';
export * from './use-store-format';
