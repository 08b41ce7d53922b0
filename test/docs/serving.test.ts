import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../support/cli.js';

// The JavaScript examples of docs/serving.md run here verbatim: the Express one over a site.db it
// expects, the Fastify one, and the web-standard one imported as a module. They live under
// test/.artifacts/ so that `sitemapkit/…` resolves to this package, as it would in an app.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs/serving.md'), 'utf8');
const examples = [...DOC.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);

let running: ChildProcess | undefined;
const dirs: string[] = [];
afterEach(() => {
  running?.kill('SIGKILL');
  running = undefined;
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workDir(name: string): string {
  const base = join(ROOT, 'test', '.artifacts');
  mkdirSync(base, { recursive: true });
  writeFileSync(join(base, '.gitignore'), '*\n');
  const dir = join(base, `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  dirs.push(dir);
  return dir;
}

async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as { port: number };
  s.close();
  await once(s, 'close');
  return port;
}

/** Starts an example as its own program and waits until it answers (or fails, or exits). */
async function startExample(dir: string, code: string): Promise<string> {
  writeFileSync(join(dir, 'app.mjs'), code);
  const port = await freePort();
  const child = spawn(process.execPath, ['app.mjs'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port) },
  });
  running = child;
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const origin = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the example exited: ${stderr}`);
    try {
      await fetch(`${origin}/robots.txt`);
      return origin;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('docs/serving.md', () => {
  it('has the four examples', () => {
    expect(examples.length).toBe(4);
  });

  it('the Express example serves the pages of site.db, robots.txt and a 304', async () => {
    const dir = workDir('serving-express');
    const db = new Database(join(dir, 'site.db'));
    db.exec(
      'DROP TABLE IF EXISTS pages; CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT, updated TEXT)',
    );
    const insert = db.prepare('INSERT INTO pages (url, updated) VALUES (?, ?)');
    for (let i = 0; i < 3; i++) insert.run(`https://example.com/p${i}`, `2024-02-0${i + 1}`);
    db.close();
    const origin = await startExample(dir, examples[0]!);
    const res = await fetch(`${origin}/sitemap.xml`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain('<url><loc>https://example.com/p2</loc><lastmod>2024-02-03</lastmod></url>');
    expect(await (await fetch(`${origin}/robots.txt`)).text()).toContain(
      'Sitemap: https://example.com/sitemap.xml',
    );
    expect(await (await fetch(`${origin}/`)).text()).toBe('home');
    const again = await fetch(`${origin}/sitemap.xml`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('the Fastify example serves its two pages', async () => {
    const origin = await startExample(workDir('serving-fastify'), examples[1]!);
    const xml = await (await fetch(`${origin}/sitemap.xml`)).text();
    expect(xml.match(/<url>/g)?.length).toBe(2);
  });

  it('the web-standard example answers through its fetch export', async () => {
    const dir = workDir('serving-edge');
    writeFileSync(join(dir, 'worker.mjs'), examples[2]!);
    const worker = (await import(join(dir, 'worker.mjs'))) as {
      default: { fetch: (r: Request) => Promise<Response> };
    };
    const res = await worker.default.fetch(new Request('https://example.com/sitemap.xml'));
    expect(await res.text()).toContain('<loc>https://example.com/blog/hello-world</loc>');
  });

  it('the site store example serves what generate --store publishes, and a store add as it lands', async () => {
    const dir = workDir('serving-store');
    writeFileSync(join(dir, 'urls.txt'), [1, 2, 3, 4, 5].map((i) => `https://example.com/p${i}`).join('\n'));
    const gen = await runBin(
      [
        'generate',
        'urls.txt',
        '--base-url',
        'https://example.com/',
        '--out',
        'out',
        '--store',
        'site-store.db',
        '--max-urls',
        '2',
      ],
      { cwd: dir },
    );
    expect(gen.stderr).toBe('');
    expect(gen.code).toBe(0);
    const origin = await startExample(dir, examples[3]!);
    const index = await (await fetch(`${origin}/sitemap.xml`)).text();
    const children = [...index.matchAll(/<loc>https:\/\/example\.com\/([^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(children).toEqual(['sitemap-00001.xml', 'sitemap-00002.xml', 'sitemap-00003.xml']);
    for (const name of children)
      expect(await (await fetch(`${origin}/${name}`)).text()).toBe(
        readFileSync(join(dir, 'out', name), 'utf8'),
      );
    // The app keeps serving while a CMS hook writes: the new URL lands in the last file only.
    const add = await runBin(['store', 'add', '--store', 'site-store.db', 'https://example.com/p6'], {
      cwd: dir,
    });
    expect(add.code).toBe(0);
    expect(await (await fetch(`${origin}/sitemap-00003.xml`)).text()).toContain('https://example.com/p6');
    expect(await (await fetch(`${origin}/sitemap-00001.xml`)).text()).toBe(
      readFileSync(join(dir, 'out', 'sitemap-00001.xml'), 'utf8'),
    );
  });
});
