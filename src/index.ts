export * from './core/diagnostics.js';
export * from './core/entry.js';
export * from './core/errors.js';
export * from './core/lastmod.js';
export * from './core/limits.js';
export * from './core/url.js';
export * from './robots/index.js';
