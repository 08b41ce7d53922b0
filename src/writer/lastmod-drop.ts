/**
 * `lastmodPolicy: 'drop'`: whether the lastmods are to go is known only once every entry is in, so
 * the children are written as usual into the sink's temp area, and when the verdict says drop,
 * each is read back and written again without `<lastmod>`, under a second temp name that the
 * commit plan publishes under the public one. Nothing is published before that, so the previous
 * set stays whole throughout; memory stays flat (one chunk at a time). Files only get smaller, so
 * every budget the engine kept still holds.
 */
import { FileWriter } from './file-writer.js';
import { finalManifestLine, stripLastmods } from './lastmod-policy.js';
import { MANIFEST_NAME } from './manifest.js';
import type { Child, Run } from './run.js';

const REWRITTEN = '.nolastmod';

/** Gunzips a stream of gzip bytes (the web platform's decompressor: no extra module). */
function gunzip(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return ReadableStream.from(source).pipeThrough(new DecompressionStream('gzip'));
}

/**
 * Reads `name` back from the sink, passes its text through `edit` a whole line at a time, and
 * writes the result as `name` + `.nolastmod` (gzipped again when the set is). Returns the totals.
 */
async function rewrite(
  run: Run,
  name: string,
  edit: (lines: string) => string,
  options: { gzip: boolean; hash: boolean },
): Promise<{ created: string; bytes: number; sha256: string }> {
  const sink = run.sink;
  if (sink.read === undefined) throw new Error('the sink cannot read back (checked by resolveLastmodPolicy)');
  const created = name + REWRITTEN;
  const target = sink.create(created);
  const gz = options.gzip ? run.gzipper : undefined;
  const w = new FileWriter(gz === undefined ? target : gz(target), { hash: options.hash });
  const put = async (s: string): Promise<void> => {
    if (s === '') return;
    const wait = w.write(s, Buffer.byteLength(s));
    if (wait !== undefined) await wait;
  };
  try {
    const stored = sink.read(name);
    const bytes = gz === undefined ? stored : gunzip(stored);
    const decoder = new TextDecoder('utf-8');
    let carry = '';
    for await (const chunk of bytes) {
      const text = carry + decoder.decode(chunk, { stream: true });
      // Whole lines only: a `<url>` never spans a line end, so no tag is cut in two.
      const cut = text.lastIndexOf('\n') + 1;
      carry = text.slice(cut);
      await put(edit(text.slice(0, cut)));
    }
    await put(edit(carry + decoder.decode()));
  } catch (error) {
    w.abort(error);
    throw error;
  }
  const totals = await w.close();
  return { created, bytes: totals.bytes, sha256: totals.sha256 };
}

/** The children written again without lastmod, each with the name it was created under. */
export async function dropLastmods(run: Run, children: readonly Child[]): Promise<Child[]> {
  const out: Child[] = [];
  const gzip = run.gz !== '';
  for (const c of children) {
    const r = await rewrite(run, c.name, stripLastmods, { gzip, hash: true });
    out.push({ ...c, bytes: r.bytes, sha256: r.sha256, created: r.created });
  }
  return out;
}

/**
 * The manifest as published: under `drop` its entry lines carry a second hash (see
 * `withBareHash`), which is kept or taken out here. Returns the name to publish it from.
 */
export async function finalManifest(run: Run, dropped: boolean): Promise<string> {
  const r = await rewrite(
    run,
    MANIFEST_NAME,
    (lines) =>
      lines
        .split('\n')
        .map((l) => finalManifestLine(l, dropped))
        .join('\n'),
    { gzip: false, hash: false },
  );
  return r.created;
}
