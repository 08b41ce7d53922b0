// sitemapkit's validator as a library call: the whole tree (index followed, children read from disk
// beside it), every rule that needs no network.
import { validateSitemap } from '../../dist/index.js';

const [root, sitemapUrl] = process.argv.slice(2);
const r = await validateSitemap(root, { recursive: true, sitemapUrl });
console.log(JSON.stringify({ urls: r.summary.urls, errors: r.summary.errors, warnings: r.summary.warnings }));
