export * from './currency.js';
export * from './errors.js';
export * from './plans.js';
export * from './router.js';
export * from './schemas.js';
export * from './places.js';
