/** The HTTP layer: one client, one retry policy, one host scheduler, one address policy. */
export { type AddressClassifier, type AddressKind, type AddressPolicy, classifyAddress } from './address.js';
export {
  HttpClient,
  type HttpClientOptions,
  type HttpMethod,
  type HttpResponse,
  type RequestOptions,
} from './client.js';
export { HttpError, type HttpFailureReason } from './errors.js';
export { DEFAULT_USER_AGENT } from './headers.js';
export { decideRetry, type RetryDecision, type RetryPolicy, retryAfterMs } from './retry.js';
export { type HostLimits, HostScheduler } from './scheduler.js';
export type { FetchLike, ResponseHeaders } from './types.js';
