export * from './errors.js';
export * from './plans.js';
export * from './router.js';
export * from './schemas.js';
