// Loads the built `sitemapkit/handler` in a vm context that has the web platform's globals and
// nothing of Node (no Buffer, process, require or node: modules), as Deno, Bun and edge runtimes
// give it, then serves two requests. Run with `node --experimental-vm-modules`; prints JSON.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const entry = new URL('../../dist/handler/index.js', import.meta.url);
const context = vm.createContext({
  URL,
  Request,
  Response,
  Headers,
  TextEncoder,
  TextDecoder,
  ReadableStream,
  WritableStream,
  TransformStream,
  CompressionStream,
});
const modules = new Map();
async function load(url) {
  const key = url.href;
  if (!modules.has(key)) {
    if (url.protocol !== 'file:') throw new Error(`the handler imports ${key}, which an edge runtime lacks`);
    modules.set(key, new vm.SourceTextModule(readFileSync(url, 'utf8'), { context, identifier: key }));
  }
  return modules.get(key);
}
const root = await load(entry);
await root.link(async (specifier, referencing) => {
  if (!specifier.startsWith('.'))
    throw new Error(`the handler imports "${specifier}", which an edge runtime lacks`);
  return load(new URL(specifier, referencing.identifier));
});
await root.evaluate();
const { createSitemapHandler } = root.namespace;
vm.runInContext('globalThis.probe = typeof Buffer + " " + typeof process + " " + typeof require', context);
const handler = createSitemapHandler({
  baseUrl: 'https://example.com/',
  maxUrlsPerFile: 2,
  source: () => [1, 2, 3].map((i) => ({ loc: `https://example.com/é${i}`, lastmod: `2024-05-0${i}` })),
});
const index = await handler(new Request('https://example.com/sitemap.xml'));
const child = await handler(
  new Request('https://example.com/sitemap-00002.xml', { headers: { 'accept-encoding': 'gzip' } }),
);
const gz = new Uint8Array(await child.arrayBuffer());
const unzipped = await new Response(
  new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip')),
).text();
console.log(
  JSON.stringify({
    globals: context.probe,
    modules: modules.size,
    index: await index.text(),
    encoding: child.headers.get('content-encoding'),
    child: unzipped,
  }),
);
