export interface SpaServer {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** The path of every request, in arrival order. */
  paths: string[];
  close(): Promise<void>;
}

export function startSpaServer(options?: {
  products?: number;
  docs?: number;
  delayApiMs?: number;
  /** Sees every request's path first; returning false leaves the request unanswered. */
  onPath?: (path: string) => boolean | undefined;
  /** @default 0 (a free port) */
  port?: number;
  /** More paths to answer, each with its content type and body (a published sitemap). */
  extra?: Record<string, { type: string; body: string }>;
}): Promise<SpaServer>;
