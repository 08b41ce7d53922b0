/**
 * robots.txt as next-sitemap writes it (a group per policy, then the `Sitemap:` lines), without
 * its `Host:` line: only Yandex ever read it, and it dropped it in 2018.
 */
import type { NextRobotsPolicy } from './options.js';

function list(value: string | readonly string[] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : value;
}

/** The text of robots.txt for these policies and sitemap URLs. */
export function robotsTxtText(policies: readonly NextRobotsPolicy[], sitemaps: readonly string[]): string {
  const groups = policies.map((p) => {
    const lines = [`# ${p.userAgent}`, `User-agent: ${p.userAgent}`];
    for (const path of list(p.allow)) lines.push(`Allow: ${path}`);
    for (const path of list(p.disallow)) lines.push(`Disallow: ${path}`);
    if (p.crawlDelay !== undefined) lines.push(`Crawl-delay: ${p.crawlDelay}`);
    return `${lines.join('\n')}\n`;
  });
  const tail = sitemaps.length > 0 ? `# Sitemaps\n${sitemaps.map((u) => `Sitemap: ${u}`).join('\n')}\n` : '';
  return [...groups, tail].filter((s) => s !== '').join('\n');
}
