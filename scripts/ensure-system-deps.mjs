#!/usr/bin/env node
// Installs the system packages the tests need when they are missing (xmllint, xsltproc, Chromium,
// Java, PostgreSQL), so that `npm test` works on a fresh machine. Tests never skip because something is absent: if an install
// fails, this script fails and says what to install by hand.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const needs = [
  { bin: 'xmllint', pkg: 'libxml2-utils' },
  { bin: 'xsltproc', pkg: 'xsltproc' },
  { bin: 'chromium', pkg: 'chromium' },
  // The W3C Nu HTML checker (vnu-jar) that checks the HTML site map runs on Java.
  { bin: 'java', pkg: 'default-jre-headless' },
  // The throwaway clusters of test/support/postgres.ts. Debian keeps initdb off PATH, under
  // /usr/lib/postgresql/<major>/bin. The package may also start a system cluster; no test uses it.
  { bin: 'initdb', pkg: 'postgresql', found: () => debianInitdb() || have('initdb') },
];

function debianInitdb() {
  const base = '/usr/lib/postgresql';
  return existsSync(base) && readdirSync(base).some((v) => existsSync(`${base}/${v}/bin/initdb`));
}

// `node scripts/ensure-system-deps.mjs xmllint` installs only what the demo needs.
const only = process.argv.slice(2);
const have = (bin) => spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0;
const present = (n) => (n.found ? n.found() : have(n.bin));
const missing = needs.filter((n) => (only.length === 0 || only.includes(n.bin)) && !present(n));
if (missing.length > 0) {
  const pkgs = missing.map((n) => n.pkg);
  console.error(`sitemapkit tests: installing ${pkgs.join(', ')} with apt-get ...`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args) =>
    execFileSync(sudo.length ? 'sudo' : args[0], sudo.length ? args : args.slice(1), {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...pkgs]);
  } catch (error) {
    console.error(`sitemapkit tests: could not install ${pkgs.join(', ')}: ${error.message}`);
    console.error(`Install them by hand (apt-get install ${pkgs.join(' ')}) and run npm test again.`);
    process.exit(2);
  }
  const still = missing.filter((n) => !present(n));
  if (still.length > 0) {
    console.error(`sitemapkit tests: ${still.map((n) => n.bin).join(', ')} still missing after apt-get.`);
    process.exit(2);
  }
}
