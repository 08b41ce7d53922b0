/** `Retry-After` lives in the HTTP layer; this path stays until the crawler imports it from there. */
export { retryAfterMs } from '../http/retry.js';
