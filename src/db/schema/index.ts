export * from './auth';
export * from './settings';
export * from './campaign';
export * from './platform';
export * from './clubs';
