/**
 * The bytes of answers the handler had whole (cached files, small texts), by Response, so that the
 * Node adapter writes them at once instead of reading them back out of the Response's stream.
 */
const bodies = new WeakMap<Response, Uint8Array>();

export function withBody(body: Uint8Array, init: ResponseInit, head: boolean): Response {
  const r = new Response(head ? null : body, init);
  if (!head) bodies.set(r, body);
  return r;
}

/** The whole body of a response the handler made from bytes, if it did. */
export function bodyOf(response: Response): Uint8Array | undefined {
  return bodies.get(response);
}
