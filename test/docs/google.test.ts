import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runProcess } from '../support/cli.js';
import { type GoogleFake, startGoogleFake, type TestAccount, testAccount } from '../support/google-fake.js';
import { tempDir } from '../support/tmp.js';

// Every shell command of docs/google.md runs here verbatim, in a folder holding the page's
// urls.txt and a key.json made for the test (Google's own token_uri), with `sitemapkit` on the
// PATH. The machine has no internet: the commands that talk to Google must stop with one
// ERR_GOOGLE sentence (exit 2). The output the page shows after a command is then checked by
// running it against the local Google fake: the one substitution is `--google-api-root FAKE` and
// a key.json whose token_uri is the fake's.
const DOC = readFileSync(fileURLToPath(new URL('../../docs/google.md', import.meta.url)), 'utf8');
const SITE = 'https://www.example.com/';

/** The sh blocks in order, each with the text block right after it (its output), if any. */
function examples(): Array<{ commands: string[]; output: string | undefined }> {
  const out: Array<{ commands: string[]; output: string | undefined }> = [];
  const re = /```(sh|text)\n([\s\S]*?)```/g;
  for (const m of DOC.matchAll(re)) {
    if (m[1] === 'sh')
      out.push({ commands: m[2]!.split('\n').filter((l) => l.trim() !== ''), output: undefined });
    else if (out.length > 0 && out.at(-1)!.output === undefined) out.at(-1)!.output = m[2];
  }
  return out;
}

function workDir(
  name: string,
  tokenUri: string,
  account: TestAccount,
): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir(name);
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'sitemapkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(dir, 'bin', 'sitemapkit'), 0o755);
  writeFileSync(join(dir, 'urls.txt'), `${SITE}\n${SITE}about\n${SITE}blog/\n`);
  writeFileSync(join(dir, 'key.json'), JSON.stringify(account.keyFile(tokenUri)));
  return {
    dir,
    env: { PATH: `${join(dir, 'bin')}:${process.env['PATH']}`, GOOGLE_APPLICATION_CREDENTIALS: '' },
  };
}

let account: TestAccount;
let google: GoogleFake;

beforeAll(async () => {
  account = testAccount('sitemaps@my-project.iam.gserviceaccount.com');
  google = await startGoogleFake(account);
});
afterAll(() => google.close());

describe('docs/google.md', () => {
  // About a dozen processes in turn, each given 60 s: the test's own limit is their sum, so a loaded
  // machine slows it down without changing its verdict.
  it(
    'runs every example verbatim (offline: one ERR_GOOGLE sentence), and prints what the page shows against the fake',
    async () => {
      const all = examples();
      expect(all.map((e) => e.commands.length)).toEqual([2, 1, 1, 1]);
      const offline = workDir('sk-doc-engines', 'https://oauth2.googleapis.com/token', account);
      const local = workDir('sk-doc-engines-fake', `${google.origin}/token`, account);
      const p = google.property(SITE, [account.clientEmail]);
      p.pages.set(SITE, {
        verdict: 'PASS',
        coverageState: 'Submitted and indexed',
        lastCrawlTime: '2026-11-24T03:00:00Z',
        googleCanonical: SITE,
        userCanonical: SITE,
      });
      p.pages.set(`${SITE}about`, {
        verdict: 'NEUTRAL',
        coverageState: 'Crawled - currently not indexed',
        lastCrawlTime: '2026-11-22T17:45:00Z',
      });
      for (const { commands, output } of all) {
        for (const line of commands) {
          const live = / (submit|status) /.test(line) && !line.includes('--dry-run');
          const r = await runProcess('sh', ['-c', line], {
            cwd: offline.dir,
            env: offline.env,
            limitMs: 60_000,
          });
          if (live) {
            expect(r.code, `${line}\n${r.stderr}`).toBe(2);
            expect(r.stderr).toMatch(/^sitemapkit: .*\[ERR_GOOGLE\]\n/);
          } else {
            expect(r.code, `${line}\n${r.stderr}`).toBe(0);
          }
          const shown = live
            ? await runProcess('sh', ['-c', `${line} --google-api-root ${google.url}`], {
                cwd: local.dir,
                env: local.env,
                limitMs: 60_000,
              })
            : r;
          if (line.includes('generate')) {
            await runProcess('sh', ['-c', line], { cwd: local.dir, env: local.env });
            continue;
          }
          expect(shown.stdout + shown.stderr, line).toBe(output);
          // What Google reports a day later, for the status examples.
          const s = p.sitemaps.get(`${SITE}sitemap.xml`);
          if (s?.isPending === true) {
            Object.assign(s, {
              isPending: false,
              lastSubmitted: '2026-11-20T10:00:00.000Z',
              lastDownloaded: '2026-11-21T08:30:00.000Z',
              warnings: '1',
              contents: [
                { type: 'web', submitted: '3', indexed: '0' },
                { type: 'image', submitted: '1', indexed: '0' },
              ],
            });
          }
        }
      }
    },
    12 * 60_000,
  );
});
