// The npm `sitemap-generator` package as its README shows, at the benchmark's concurrency and
// without its default 250 ms interval (its other options are its defaults). Usage: node crawl-sitemap-generator.mjs URL OUT.xml CONCURRENCY
import SitemapGenerator from 'sitemap-generator';

const [url, filepath, concurrency] = process.argv.slice(2);
const generator = SitemapGenerator(url, {
  filepath,
  maxConcurrency: Number(concurrency),
  interval: 0,
});
let fetched = 0;
generator.on('add', () => fetched++);
generator.on('done', () => {
  console.log(JSON.stringify({ added: fetched }));
});
generator.start();
