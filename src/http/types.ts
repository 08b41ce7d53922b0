/** The types every caller of the HTTP layer shares. */

/** The subset of WHATWG `fetch` sitemapkit calls when the user brings their own. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Response headers as sitemapkit reads them. */
export interface ResponseHeaders {
  /** The field's value (repeated fields joined with ", "), or null. */
  get(name: string): string | null;
  /** Each line of a field as sent (through a user's `fetch`: one joined value). */
  values(name: string): string[];
  /** Every field, repeated ones joined with ", ". */
  record(): Record<string, string>;
}
