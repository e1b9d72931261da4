export * from './formulas';
export * from './format';
