import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, runProcess } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// Every shell command of docs/engines.md runs here verbatim, in order, with `sitemapkit` on the
// PATH, a urls.txt holding the page's three URLs and a (made-up) BING_WEBMASTER_API_KEY. The dry
// runs print exactly the requests the page shows; the machine has no internet, so the real
// submissions must fail as a user offline would see them fail: exit 2, one sentence, no key.
const DOC = readFileSync(fileURLToPath(new URL('../../docs/engines.md', import.meta.url)), 'utf8');
const KEY = '0123456789abcdef0123456789abcdef';

function blocks(lang: string): string[] {
  return [...DOC.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

describe('docs/engines.md', () => {
  it('runs every example as shown: the dry runs print the requests the page shows', async () => {
    const work = tempDir('sk-doc-engines');
    mkdirSync(join(work, 'bin'));
    writeFileSync(join(work, 'bin', 'sitemapkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(work, 'bin', 'sitemapkit'), 0o755);
    writeFileSync(
      join(work, 'urls.txt'),
      'https://www.example.com/\nhttps://www.example.com/pricing\nhttps://www.example.com/blog/hello\n',
    );
    const commands = blocks('sh').flatMap((b) => b.split('\n').filter((l) => l.trim() !== ''));
    expect(commands).toHaveLength(5);
    let printed = '';
    for (const line of commands) {
      const r = await runProcess('sh', ['-c', line], {
        cwd: work,
        env: { PATH: `${join(work, 'bin')}:${process.env['PATH']}`, BING_WEBMASTER_API_KEY: KEY },
      });
      expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
      if (line.includes('--dry-run')) {
        expect(r.code, `${line}\n${r.stderr}`).toBe(0);
        printed += r.stdout;
      } else {
        expect(r.code, `${line}\n${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(/^sitemapkit: .*\[ERR_BING\]\n {2}\S.*\n$/);
      }
    }
    expect(printed).toBe(blocks('text')[0]);
  });
});
