/**
 * The runtime examples of docs/serving.md ("In any web runtime") run verbatim under Node: the
 * Hono app is served by @hono/node-server, and the Deno and Bun ones with `Deno.serve` and
 * `Bun.serve` stood in for by a server that hands their handler the same `Request` those runtimes
 * would. They live under test/.artifacts/ so that `sitemapkit/…` resolves to this package.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { xsdProblems } from '../handler/fixtures.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs/serving.md'), 'utf8');
const SECTION = DOC.slice(
  DOC.indexOf('## In any web runtime'),
  DOC.indexOf('\n## ', DOC.indexOf('## In any web runtime') + 1),
);
const examples = [...SECTION.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

type FetchHandler = (request: Request) => Response | Promise<Response>;

const dir = join(ROOT, 'test', '.artifacts', `runtimes-doc-${process.pid}`);
let server: ServerType | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (s !== undefined) await new Promise<void>((done) => s.close(() => done()));
  delete (globalThis as Record<string, unknown>)['Deno'];
  delete (globalThis as Record<string, unknown>)['Bun'];
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Imports an example as a module of its own (its text as the page has it). */
async function load(name: string, code: string): Promise<Record<string, unknown>> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '..', '.gitignore'), '*\n');
  // Type-free TypeScript, so the same text is a JavaScript module.
  writeFileSync(join(dir, `${name}.mjs`), code);
  return (await import(join(dir, `${name}.mjs`))) as Record<string, unknown>;
}

/** Serves a fetch handler on a free loopback port, as the runtime would. */
function serveOnLoopback(fetch: FetchHandler): Promise<string> {
  return new Promise((ready) => {
    server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      ready(`http://127.0.0.1:${info.port}`),
    );
  });
}

async function expectSitemaps(origin: string, locs: string[], home: string): Promise<void> {
  const res = await fetch(`${origin}/sitemap.xml`);
  expect(res.status).toBe(200);
  const xml = await res.text();
  expect([...xml.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual(locs);
  expect(xsdProblems('sitemap.xml', xml)).toBe('');
  const again = await fetch(`${origin}/sitemap.xml`, {
    headers: { 'if-none-match': res.headers.get('etag')! },
  });
  expect(again.status).toBe(304);
  expect(await (await fetch(`${origin}/`)).text()).toBe(home);
}

describe('docs/serving.md, in any web runtime', () => {
  it('has the Hono, Deno and Bun examples', () => {
    expect(examples.length).toBe(3);
    expect(examples.map((e) => (/Hono|Deno\.serve|Bun\.serve/.exec(e) ?? [''])[0])).toEqual([
      'Hono',
      'Deno.serve',
      'Bun.serve',
    ]);
  });

  it('the Hono app serves the sitemaps, robots.txt and a 304, and its own home page', async () => {
    const app = (await load('hono', examples[0]!))['default'] as { fetch: FetchHandler };
    const origin = await serveOnLoopback(app.fetch);
    await expectSitemaps(origin, ['https://example.com/', 'https://example.com/pricing'], 'home');
    expect(await (await fetch(`${origin}/robots.txt`)).text()).toContain(
      'Sitemap: https://example.com/sitemap.xml',
    );
  });

  it('the Deno example, through Deno.serve(options, handler)', async () => {
    const served: Array<{ options: unknown; handler: FetchHandler }> = [];
    (globalThis as Record<string, unknown>)['Deno'] = {
      serve: (options: unknown, handler: FetchHandler) => served.push({ options, handler }),
    };
    await load('deno', examples[1]!);
    expect(served.map((s) => s.options)).toEqual([{ port: 8000 }]);
    const origin = await serveOnLoopback(served[0]!.handler);
    await expectSitemaps(origin, ['https://example.com/', 'https://example.com/docs'], 'home');
  });

  it('the Bun example, through Bun.serve({ port, fetch })', async () => {
    const served: Array<{ port: number; fetch: FetchHandler }> = [];
    (globalThis as Record<string, unknown>)['Bun'] = {
      serve: (options: { port: number; fetch: FetchHandler }) => served.push(options),
    };
    await load('bun', examples[2]!);
    expect(served.map((s) => s.port)).toEqual([3000]);
    const origin = await serveOnLoopback(served[0]!.fetch);
    const res = await fetch(`${origin}/sitemap.xml`);
    expect([...(await res.text()).matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      'https://example.com/',
      'https://example.com/shop',
    ]);
    // Bare, the handler is the whole server: any other path is its 404.
    expect((await fetch(`${origin}/`)).status).toBe(404);
  });
});
