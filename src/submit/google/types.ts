/**
 * What Google answers, with the API's own field names (scripts rely on them), and what a submit
 * reports. Google sends its int64 counts as strings; they are numbers here. The deprecated
 * `contents[].indexed` ("do not use", says the reference) is left out.
 */
import type { GoogleApiError } from './errors.js';

/** One content type of a sitemap: `web`, `image`, `video`, `news`, … and how many were submitted. */
export interface GoogleSitemapContent {
  type: string;
  submitted: number;
}

/** A sitemap as Search Console knows it (the sitemaps resource of webmasters/v3). */
export interface GoogleSitemap {
  /** The sitemap's URL. */
  path: string;
  /** RFC 3339; absent when Google never recorded a submission. */
  lastSubmitted?: string;
  /** RFC 3339; absent when Google never downloaded it. */
  lastDownloaded?: string;
  /** True while Google has not processed it. */
  isPending: boolean;
  /** True for a sitemap index. */
  isSitemapsIndex: boolean;
  /** `sitemap`, `rssFeed`, `atomFeed`, `urlList`, … */
  type?: string;
  /** Problems with the sitemap itself. */
  errors: number;
  /** Problems with URLs in it. */
  warnings: number;
  contents: GoogleSitemapContent[];
}

/** The index status of one page (URL Inspection API, `indexStatusResult`), with Google's field names. */
export interface GoogleIndexStatus {
  /** `PASS` (indexed), `PARTIAL`, `FAIL`, `NEUTRAL` (excluded) or `VERDICT_UNSPECIFIED`. */
  verdict?: string;
  /** In words: `Submitted and indexed`, `Crawled - currently not indexed`, `URL is unknown to Google`, … */
  coverageState?: string;
  robotsTxtState?: string;
  indexingState?: string;
  /** RFC 3339; absent when never crawled. */
  lastCrawlTime?: string;
  pageFetchState?: string;
  /** The canonical Google chose; absent when the page is not indexed. */
  googleCanonical?: string;
  /** The canonical the page declares. */
  userCanonical?: string;
  crawledAs?: string;
  sitemap?: string[];
  referringUrls?: string[];
}

/** One inspected page. */
export interface GoogleInspection {
  /** The page inspected. */
  inspectionUrl: string;
  /** A link to the inspection in Search Console. */
  inspectionResultLink?: string;
  indexStatusResult: GoogleIndexStatus;
}

export type GoogleSubmitStatus = 'submitted' | 'failed' | 'dry-run';

/** What happened to one sitemap: `submitted` only when Google answered 2xx. */
export interface GoogleSubmitResult {
  sitemap: string;
  status: GoogleSubmitStatus;
  httpStatus?: number;
  /** Requests made, retries included. */
  attempts: number;
  message: string;
  error?: GoogleApiError;
}

const count = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : 0;
  return Number.isFinite(n) ? n : 0;
};
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A sitemaps resource as sent by Google → {@link GoogleSitemap}. */
export function sitemapOf(raw: unknown): GoogleSitemap {
  const v = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const out: GoogleSitemap = {
    path: str(v['path']) ?? '',
    isPending: v['isPending'] === true,
    isSitemapsIndex: v['isSitemapsIndex'] === true,
    errors: count(v['errors']),
    warnings: count(v['warnings']),
    contents: Array.isArray(v['contents'])
      ? v['contents'].map((c: Record<string, unknown>) => ({
          type: str(c?.['type']) ?? 'web',
          submitted: count(c?.['submitted']),
        }))
      : [],
  };
  const lastSubmitted = str(v['lastSubmitted']);
  const lastDownloaded = str(v['lastDownloaded']);
  const type = str(v['type']);
  if (lastSubmitted !== undefined) out.lastSubmitted = lastSubmitted;
  if (lastDownloaded !== undefined) out.lastDownloaded = lastDownloaded;
  if (type !== undefined) out.type = type;
  return out;
}

const INDEX_FIELDS = [
  'verdict',
  'coverageState',
  'robotsTxtState',
  'indexingState',
  'lastCrawlTime',
  'pageFetchState',
  'googleCanonical',
  'userCanonical',
  'crawledAs',
] as const;

/** An `InspectUrlIndexResponse` → {@link GoogleInspection}. */
export function inspectionOf(page: string, body: Record<string, unknown>): GoogleInspection {
  const result = (body['inspectionResult'] ?? {}) as Record<string, unknown>;
  const status = (result['indexStatusResult'] ?? {}) as Record<string, unknown>;
  const index: GoogleIndexStatus = {};
  for (const f of INDEX_FIELDS) {
    const v = str(status[f]);
    if (v !== undefined) index[f] = v;
  }
  for (const f of ['sitemap', 'referringUrls'] as const) {
    const v = status[f];
    if (Array.isArray(v)) index[f] = v.filter((x): x is string => typeof x === 'string');
  }
  const out: GoogleInspection = { inspectionUrl: page, indexStatusResult: index };
  const link = str(result['inspectionResultLink']);
  if (link !== undefined) out.inspectionResultLink = link;
  return out;
}
