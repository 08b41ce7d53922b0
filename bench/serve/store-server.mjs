// sitemapkit's handler in an Express app serving a site store opened read-only, through
// storeSource (a connection per read; the store's own file). COLD=1 turns the cache off, so every
// request generates the file. Prints the port, and exits when stdin ends.
import { createServer } from 'node:http';
import express from 'express';
import { createNodeSitemapHandler, storeSource, toNodeListener } from 'sitemapkit/handler/node';
import { openStore } from 'sitemapkit/store';

const [storePath] = process.argv.slice(2);
const store = await openStore(storePath, { readOnly: true });
const handler = createNodeSitemapHandler({
  ...storeSource(store),
  ...(process.env.COLD === '1' ? { cache: false } : {}),
});
const app = express();
app.use(toNodeListener(handler));
const server = createServer(app).listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
