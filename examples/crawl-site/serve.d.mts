/** Serves a folder (the sample site by default) on 127.0.0.1 with the sample's redirects. */
export function serveSampleSite(options?: { port?: number; root?: string }): Promise<{
  url: string;
  close: () => Promise<void>;
}>;
