/** Google Search Console: submit sitemaps, read their status, inspect pages (issue 13). */
export {
  GOOGLE_API_ROOT,
  GOOGLE_INSPECTION_ROOT,
  type GoogleOptions,
  openSearchConsole,
  SearchConsoleClient,
} from './client.js';
export { GOOGLE_TOKEN_URI, type ServiceAccountKey } from './credentials.js';
export { GoogleApiError, type GoogleFailureKind } from './errors.js';
export type { GoogleRequest } from './exchange.js';
export { checkSite } from './site.js';
export { WEBMASTERS_SCOPE } from './token.js';
export type {
  GoogleIndexStatus,
  GoogleInspection,
  GoogleSitemap,
  GoogleSitemapContent,
  GoogleSubmitResult,
  GoogleSubmitStatus,
} from './types.js';
