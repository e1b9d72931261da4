export * from './styles';
export * from './button';
export * from './spinner';
export * from './dialog';
export * from './error-card';
export * from './toast';
export * from './avatar';
export * from './use-page-title';
