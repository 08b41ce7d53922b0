/**
 * A TCP proxy on 127.0.0.1 in front of the test cluster that can cut a connection right after the
 * server answered a chosen named statement in full: its ReadyForQuery is in, so the statement took
 * effect (an autocommit statement committed), and the client sees its connection lost instead of
 * the answer. That is the window a server killed by `pg_ctl -m immediate`, or a link dropped, opens
 * between a commit and its acknowledgement, hit on purpose rather than by timing. It can also cut
 * the answer to a statement that changed rows (an UPDATE with no RETURNING), or to the COMMIT of a
 * transaction in which a chosen statement changed rows, and it logs every answer to a named
 * statement with the rows its command tag counts (a refused INSERT … WHERE counts 0).
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
   * that carries rows (`on: 'rows'`, the default) or that changed rows (`on: 'changed'`: its
   * command tag counts one or more, as an UPDATE or DELETE without RETURNING does), once that
   * answer is complete; the answers before it are passed on.
   */
  cutAfter(name: string, nth: number, on?: 'rows' | 'changed'): void;
  /**
   * Cuts the connection whose answer to a COMMIT is the `nth` (counted from now) of a transaction
   * in which the named statement `name` changed rows: the transaction is durable, and the client
   * sees its connection lost instead of the COMMIT's answer.
   */
  cutAfterCommit(name: string, nth: number): void;
  /** Connections cut so far. */
  readonly cuts: number;
  /**
   * Every complete answer to a named statement (and to a COMMIT, named `COMMIT`), on every
   * connection, in the order the proxy read them: how many rows its command tag counts, and
   * whether the proxy cut the connection instead of passing it on.
   */
  readonly answers: ReadonlyArray<{ name: string; count: number; cut: boolean }>;
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

/** The rows a CommandComplete tag counts (`UPDATE 2`, `INSERT 0 1`, `SELECT 3`; 0 for `COMMIT`). */
function tagCount(body: Buffer): number {
  const m = /(\d+)\0?$/.exec(body.toString('latin1'));
  return m === null ? 0 : Number(m[1]);
}

/** The text of a simple Query message, without its terminating zero. */
function queryText(body: Buffer): string {
  return body.subarray(0, body.indexOf(0)).toString().trim().toUpperCase();
}

type Plan =
  | { kind: 'statement'; name: string; on: 'rows' | 'changed'; left: number }
  | { kind: 'commit'; name: string; left: number };

export async function startPgProxy(target: { url: string; port: number }): Promise<PgProxy> {
  let plan: Plan | undefined;
  let cuts = 0;
  const answers: Array<{ name: string; count: number; cut: boolean }> = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    /** The answer of a watched request, withheld until it is complete. */
    let held: Buffer[] | undefined;
    /** What the client asked last (a named statement, `COMMIT`, or '' for anything else). */
    let asked = '';
    let rows = false;
    let count = 0;
    /** The named statements that changed rows in the open transaction. */
    const changed = new Set<string>();
    const fromClient = new Frames(1);
    const fromServer = new Frames(0);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    /** Whether the answer to what the client asks now may be the one to cut. */
    const watched = (): boolean =>
      plan !== undefined &&
      (plan.kind === 'statement' ? asked === plan.name : asked === 'COMMIT' && changed.has(plan.name));
    client.on('data', (chunk: Buffer) => {
      for (const m of fromClient.push(chunk)) {
        if (m.type === 'B') asked = boundStatement(m.body);
        else if (m.type === 'Q') {
          const text = queryText(m.body);
          asked = text === 'COMMIT' ? 'COMMIT' : '';
          if (text === 'BEGIN' || text === 'ROLLBACK') changed.clear();
        } else continue;
        if (watched()) held = [];
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      const messages = fromServer.push(chunk);
      for (const m of messages) {
        if (m.type === 'D') rows = true;
        else if (m.type === 'C') count += tagCount(m.body);
      }
      if (held === undefined) client.write(chunk);
      else held.push(chunk);
      if (!messages.some((m) => m.type === 'Z')) return;
      // The answer is complete: cut it when it is the planned one, else pass it on.
      let cut = false;
      if (held !== undefined && plan !== undefined) {
        const hit = plan.kind === 'commit' || (plan.on === 'rows' ? rows : count > 0);
        cut = hit && --plan.left === 0;
      }
      if (asked !== '') answers.push({ name: asked, count, cut });
      if (asked === 'COMMIT') changed.clear();
      else if (asked !== '' && count > 0) changed.add(asked);
      const answer = held;
      held = undefined;
      asked = '';
      rows = false;
      count = 0;
      if (cut) {
        plan = undefined;
        cuts++;
        end();
      } else if (answer !== undefined) {
        client.write(Buffer.concat(answer));
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
    cutAfter(name, nth, on = 'rows') {
      plan = { kind: 'statement', name, on, left: nth };
    },
    cutAfterCommit(name, nth) {
      plan = { kind: 'commit', name, left: nth };
    },
    get cuts() {
      return cuts;
    },
    answers,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
