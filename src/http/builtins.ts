/**
 * Node's networking modules, loaded on first use. `node:net`, `node:http` and `node:zlib` take
 * about 5 ms of CPU to load, and every `sitemapkit parse` of a local file builds an HTTP client
 * (while resolving its options, so that a bad header is refused before any work) without ever
 * sending a request: a static import would make each such run pay for them (start-up, issue 16).
 */
import { createRequire } from 'node:module';

// Not named `require`: the CLI bundle's banner declares one in every chunk.
const requireBuiltin = createRequire(import.meta.url);

let net: typeof import('node:net') | undefined;
let http: typeof import('node:http') | undefined;
let zlib: typeof import('node:zlib') | undefined;

/** `node:net`, loaded the first time it is needed. */
export function netModule(): typeof import('node:net') {
  net ??= requireBuiltin('node:net') as typeof import('node:net');
  return net;
}

/** `node:http`, loaded the first time it is needed. */
export function httpModule(): typeof import('node:http') {
  http ??= requireBuiltin('node:http') as typeof import('node:http');
  return http;
}

/** `node:zlib`, loaded the first time it is needed. */
export function zlibModule(): typeof import('node:zlib') {
  zlib ??= requireBuiltin('node:zlib') as typeof import('node:zlib');
  return zlib;
}
