/**
 * The Astro integration. Options are resolved when the integration is created, so a wrong option
 * fails `astro dev` and `astro build` at once; the routes are remembered from
 * `astro:routes:resolved` and the config from `astro:config:done`; `astro:build:done` writes.
 * Astro is only ever imported for its types: the package does not depend on it.
 */
import type { AstroConfig, AstroIntegration, IntegrationResolvedRoute } from 'astro';
import { type BuildRoute, writeAstroSitemaps } from './build.js';
import { type AstroSitemapOptions, resolveAstroOptions } from './options.js';

/** The integration's name in Astro's log. */
export const INTEGRATION_NAME = 'sitemapkit';

/**
 * The sitemap integration for Astro, in place of `@astrojs/sitemap` (same options, same file
 * names by default; see docs/astro.md):
 *
 * @example
 * // astro.config.mjs
 * import { defineConfig } from 'astro/config';
 * import { sitemap } from 'sitemapkit/astro';
 * export default defineConfig({ site: 'https://www.example.com', integrations: [sitemap()] });
 */
export function sitemap(options?: AstroSitemapOptions): AstroIntegration {
  const o = resolveAstroOptions(options);
  let config: AstroConfig | undefined;
  let buildOutput: 'static' | 'server' = 'static';
  let routes: BuildRoute[] | undefined;
  return {
    name: INTEGRATION_NAME,
    hooks: {
      'astro:config:done': ({ config: c, buildOutput: b }) => {
        config = c;
        buildOutput = b;
      },
      'astro:routes:resolved': ({ routes: r }: { routes: IntegrationResolvedRoute[] }) => {
        routes = r.map((route) => ({
          pattern: route.pattern,
          type: route.type,
          pathname: route.pathname,
          isPrerendered: route.isPrerendered,
        }));
      },
      'astro:build:done': async ({ dir, assets, logger }) => {
        const c = config!;
        await writeAstroSitemaps(
          {
            config: {
              site: c.site,
              base: c.base,
              trailingSlash: c.trailingSlash,
              build: { format: c.build.format },
            },
            buildOutput,
            routes,
            dir,
            assets,
            logger,
          },
          o,
        );
      },
    },
  };
}
