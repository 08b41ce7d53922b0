/**
 * The handler's answers before they become a web `Response`: status, headers and body (bytes it
 * holds, a stream, or none). The web handler wraps them; the Node adapter writes them to the
 * socket directly, with no `Request` or `Response` made (a cached file costs one write).
 */

/** A request as the handler reads it. */
export interface PlainRequest {
  method: string;
  pathname: string;
  /** A request header, lower-case name; `null` when absent. */
  header(name: string): string | null;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | ReadableStream<Uint8Array> | null;
}

/** A value, or a promise of it: the warm path answers without a promise when nothing waits. */
export type Maybe<T> = T | Promise<T>;

/** Whether `x` is a promise (or any thenable) rather than a value. */
export function isThenable<T>(x: T | PromiseLike<T>): x is PromiseLike<T> {
  return typeof (x as { then?: unknown } | null | undefined)?.then === 'function';
}

export type Answerer = (request: PlainRequest) => Maybe<Answer>;

const answerers = new WeakMap<object, Answerer>();

export function setAnswerer(handler: object, answerer: Answerer): void {
  answerers.set(handler, answerer);
}

/** The answering core of a handler made by `createSitemapHandler` (undefined for any other function). */
export function answererOf(handler: object): Answerer | undefined {
  return answerers.get(handler);
}

/**
 * The web Response of an answer. Bytes the handler keeps (a cached file) are given as a stream:
 * `new Response(bytes)` copies them (391 KB per request for a gzipped 50,000-URL child).
 */
export function toResponse(a: Answer): Response {
  let body = a.body;
  if (body instanceof Uint8Array) {
    const bytes = body;
    body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
  }
  return new Response(body, { status: a.status, headers: a.headers });
}

/** A short plain-text answer (404, 405, 500). */
export function textAnswer(status: number, text: string, extra: Record<string, string> = {}): Answer {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra },
    body: new TextEncoder().encode(`${text}\n`),
  };
}
