/**
 * A TCP proxy on 127.0.0.1 in front of the test cluster that can cut a connection right after the
 * server answered a chosen named statement in full: its ReadyForQuery is in, so the statement took
 * effect (an autocommit statement committed), and the client sees its connection lost instead of
 * the answer. That is the window a server killed by `pg_ctl -m immediate`, or a link dropped, opens
 * between a commit and its acknowledgement, hit on purpose rather than by timing.
 *
 * It reads the protocol's message frames (a type byte, then a 32-bit length that counts itself):
 * the client's first message (the startup packet) has no type byte; every other one has.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface PgProxy {
  /** The cluster's URL with the proxy's port. */
  url: string;
  /**
   * Cuts the connection whose answer to the named statement `name` is the `nth` (counted from now)
   * that carries rows, once that answer is complete; the answers before it are passed on.
   */
  cutAfter(name: string, nth: number): void;
  /** Connections cut so far. */
  readonly cuts: number;
  close(): Promise<void>;
}

/** Splits a byte stream into protocol messages; `untyped` frames come first (the startup packet). */
class Frames {
  #buf = Buffer.alloc(0);
  #untyped: number;

  constructor(untyped: number) {
    this.#untyped = untyped;
  }

  push(chunk: Buffer): Array<{ type: string; body: Buffer }> {
    this.#buf = Buffer.concat([this.#buf, chunk]);
    const out: Array<{ type: string; body: Buffer }> = [];
    for (;;) {
      const head = this.#untyped > 0 ? 0 : 1;
      if (this.#buf.length < head + 4) return out;
      const len = this.#buf.readUInt32BE(head);
      if (this.#buf.length < head + len) return out;
      out.push({
        type: head === 0 ? '' : String.fromCharCode(this.#buf[0]!),
        body: this.#buf.subarray(head + 4, head + len),
      });
      this.#buf = this.#buf.subarray(head + len);
      if (this.#untyped > 0) this.#untyped--;
    }
  }
}

/** The statement name a Bind message names (after its portal name). */
function boundStatement(body: Buffer): string {
  const portalEnd = body.indexOf(0);
  const nameEnd = body.indexOf(0, portalEnd + 1);
  return body.subarray(portalEnd + 1, nameEnd).toString();
}

export async function startPgProxy(target: { url: string; port: number }): Promise<PgProxy> {
  let plan: { name: string; left: number } | undefined;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    /** The answer of a watched statement, withheld until it is complete. */
    let held: Buffer[] | undefined;
    let rows = false;
    const fromClient = new Frames(1);
    const fromServer = new Frames(0);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      for (const m of fromClient.push(chunk))
        if (m.type === 'B' && plan !== undefined && boundStatement(m.body) === plan.name) held = [];
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      const messages = fromServer.push(chunk);
      if (held === undefined) {
        client.write(chunk);
        return;
      }
      held.push(chunk);
      if (messages.some((m) => m.type === 'D')) rows = true;
      if (!messages.some((m) => m.type === 'Z')) return;
      // The answer is complete: cut it when it is the nth that carries rows, else pass it on.
      const answer = Buffer.concat(held);
      held = undefined;
      const cut = rows && plan !== undefined && --plan.left === 0;
      rows = false;
      if (cut) {
        plan = undefined;
        cuts++;
        end();
      } else {
        client.write(answer);
      }
    });
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(target.url);
  url.port = String(port);
  return {
    url: url.toString(),
    cutAfter(name, nth) {
      plan = { name, left: nth };
    },
    get cuts() {
      return cuts;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
