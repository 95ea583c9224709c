export * from './errors.js';
export * from './domain/index.js';
export * from './api/index.js';
export * from './events/index.js';
export * from './events/feed-reader.js';
export * from './i18n/index.js';
