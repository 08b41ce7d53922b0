/** The HTTP layer: one client, one retry policy, one host scheduler, one address policy. */
export {
  type AddressClassifier,
  AddressGuard,
  type AddressKind,
  type AddressPolicy,
  classifyAddress,
} from './address.js';
export {
  HttpClient,
  type HttpClientOptions,
  type HttpMethod,
  type HttpResponse,
  type RequestOptions,
} from './client.js';
export { describeNetworkError, HttpError, type HttpFailureReason } from './errors.js';
export { checkHeaders, checkUserAgent, DEFAULT_USER_AGENT, isHeaderName, isHeaderValue } from './headers.js';
export {
  backoffMs,
  decideRetry,
  RETRY_STATUSES,
  type RetryDecision,
  type RetryPolicy,
  retryAfterMs,
} from './retry.js';
export { delayForRate, type HostLimits, HostScheduler, hostKey } from './scheduler.js';
export { webChunks } from './transport.js';
export type { FetchLike, ResponseHeaders } from './types.js';
