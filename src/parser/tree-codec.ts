/**
 * Items across the thread boundary, cheaply: structured clone (v8's deserializer) costs the main
 * thread about four times what the worker saves it, per entry. Here each item is written as the
 * template of its shape (keys in order, value kinds, array lengths) and its values, all in one
 * string; the main thread splits the string once and builds each item with a function compiled
 * once per template, which makes objects of the same keys in the same order. Anything the scheme
 * cannot carry exactly (a separator character in a value, an unusual key, -0, a non-finite number,
 * undefined or null, too many templates) makes {@link encodeItems} answer undefined, and the caller
 * falls back to structured clone.
 */
import type { SitemapItem } from './types.js';

/** Separators: never in XML text (C0 controls other than tab, LF, CR are not XML characters). */
const VALUE = '\u0000';
const TEMPLATE = '\u0001';
const HEAD = '\u0002';
const UNSAFE = /[\u0000-\u0002]/;
const KEY = /^[A-Za-z_$][\w$]*$/;

/** Distinct templates in one message, at most; more are carried by structured clone. */
const MAX_TEMPLATES = 64;
/** Compiled templates kept on the main thread. */
const MAX_COMPILED = 2048;

class Unencodable extends Error {}

function shape(v: unknown, values: string[]): string {
  switch (typeof v) {
    case 'string':
      if (UNSAFE.test(v)) throw new Unencodable();
      values.push(v);
      return 's';
    case 'number':
      if (!Number.isFinite(v) || Object.is(v, -0)) throw new Unencodable();
      values.push(String(v));
      return 'n';
    case 'boolean':
      values.push(v ? '1' : '');
      return 'b';
    case 'object': {
      if (v === null) throw new Unencodable();
      if (Array.isArray(v)) {
        let t = '[';
        for (const e of v) t += shape(e, values);
        return `${t}]`;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) throw new Unencodable();
      let t = '{';
      for (const k of Object.keys(v)) {
        if (!KEY.test(k)) throw new Unencodable();
        t += `${k}:${shape((v as Record<string, unknown>)[k], values)},`;
      }
      return `${t}}`;
    }
    default:
      throw new Unencodable();
  }
}

/** The items as one string, or undefined when they must go by structured clone. */
export function encodeItems(items: readonly SitemapItem[]): string | undefined {
  const templates: string[] = [];
  const ids = new Map<string, number>();
  const out: string[] = [];
  try {
    for (const item of items) {
      const at = out.length;
      out.push('');
      const t = shape(item, out);
      let id = ids.get(t);
      if (id === undefined) {
        if (templates.length >= MAX_TEMPLATES) return undefined;
        id = templates.length;
        templates.push(t);
        ids.set(t, id);
      }
      out[at] = String(id);
    }
  } catch (error) {
    if (error instanceof Unencodable) return undefined;
    throw error;
  }
  return `${templates.join(TEMPLATE)}${HEAD}${out.join(VALUE)}`;
}

interface Compiled {
  /** Values the template reads. */
  size: number;
  build: (values: readonly string[], at: number) => SitemapItem;
}

const compiled = new Map<string, Compiled>();

/** The source of an expression building the value template `t` describes, from `values[at + n]`. */
function compile(t: string): Compiled {
  let i = 0;
  let n = 0;
  const value = (): string => {
    const c = t[i++];
    if (c === 's') return `v[a+${n++}]`;
    if (c === 'n') return `+v[a+${n++}]`;
    if (c === 'b') return `v[a+${n++}]!==''`;
    if (c === '[') {
      const parts: string[] = [];
      while (t[i] !== ']') parts.push(value());
      i++;
      return `[${parts.join(',')}]`;
    }
    if (c === '{') {
      const parts: string[] = [];
      while (t[i] !== '}') {
        const colon = t.indexOf(':', i);
        const key = t.slice(i, colon);
        i = colon + 1;
        // Keys matched KEY when encoded; quoted all the same, so nothing in a template is code.
        parts.push(`${JSON.stringify(key)}:${value()}`);
        i++; // the comma after each value
      }
      i++;
      return `{${parts.join(',')}}`;
    }
    throw new Error(`tree codec: bad template at ${i - 1}`);
  };
  const body = value();
  // One function per shape: V8 gives the objects it builds one hidden class, as the parser's own.
  const build = new Function('v', 'a', `return ${body};`) as Compiled['build'];
  return { size: n, build };
}

/** The items {@link encodeItems} wrote. */
export function decodeItems(text: string): SitemapItem[] {
  const head = text.indexOf(HEAD);
  const items: SitemapItem[] = [];
  if (head === text.length - 1) return items;
  const templates = text
    .slice(0, head)
    .split(TEMPLATE)
    .map((t) => {
      let c = compiled.get(t);
      if (c === undefined) {
        if (compiled.size >= MAX_COMPILED) compiled.clear();
        c = compile(t);
        compiled.set(t, c);
      }
      return c;
    });
  const values = text.slice(head + 1).split(VALUE);
  let at = 0;
  while (at < values.length) {
    const c = templates[Number(values[at])]!;
    items.push(c.build(values, at + 1));
    at += 1 + c.size;
  }
  return items;
}
