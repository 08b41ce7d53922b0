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

/**
 * The shapes seen so far, as a trie of tokens (a key, or a value kind): walking it costs a map
 * look-up per key instead of building the template string of every item. Each node knows its
 * template so far; the node an item ends on knows the item's whole template.
 */
interface ShapeNode {
  template: string;
  keys: Map<string, ShapeNode> | undefined;
  kinds: Array<ShapeNode | undefined> | undefined;
  /** The template's number in the message being encoded, and which message that is. */
  id: number;
  message: number;
}

const S = 0;
const N = 1;
const B = 2;
const OPEN_OBJECT = 3;
const CLOSE_OBJECT = 4;
const OPEN_ARRAY = 5;
const CLOSE_ARRAY = 6;
const COMMA = 7;
const KIND_TEXT = ['s', 'n', 'b', '{', '}', '[', ']', ','];

/** Trie nodes at most; past that, items go by structured clone. */
const MAX_NODES = 20_000;
let nodes = 0;
const root = node('');
let message = 0;

function node(template: string): ShapeNode {
  nodes++;
  return { template, keys: undefined, kinds: undefined, id: -1, message: -1 };
}

function kind(from: ShapeNode, k: number): ShapeNode {
  if (from.kinds === undefined) from.kinds = [];
  const kinds = from.kinds;
  let next = kinds[k];
  if (next === undefined) {
    if (nodes >= MAX_NODES) throw new Unencodable();
    next = node(from.template + KIND_TEXT[k]!);
    kinds[k] = next;
  }
  return next;
}

function key(from: ShapeNode, k: string): ShapeNode {
  if (from.keys === undefined) from.keys = new Map();
  const keys = from.keys;
  let next = keys.get(k);
  if (next === undefined) {
    if (!KEY.test(k) || nodes >= MAX_NODES) throw new Unencodable();
    next = node(`${from.template}${k}:`);
    keys.set(k, next);
  }
  return next;
}

/** Walks the trie along `v`, pushing its values; returns the node after it. */
function walk(at: ShapeNode, v: unknown, values: string[]): ShapeNode {
  switch (typeof v) {
    case 'string':
      if (UNSAFE.test(v)) throw new Unencodable();
      values.push(v);
      return kind(at, S);
    case 'number':
      if (!Number.isFinite(v) || Object.is(v, -0)) throw new Unencodable();
      values.push(String(v));
      return kind(at, N);
    case 'boolean':
      values.push(v ? '1' : '');
      return kind(at, B);
    case 'object': {
      if (v === null) throw new Unencodable();
      if (Array.isArray(v)) {
        let n = kind(at, OPEN_ARRAY);
        for (const e of v) n = walk(n, e, values);
        return kind(n, CLOSE_ARRAY);
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) throw new Unencodable();
      let n = kind(at, OPEN_OBJECT);
      // A plain object: its enumerable keys are its own. Each key, its value, and the comma that
      // ends each entry of the template.
      for (const k in v) n = kind(walk(key(n, k), (v as Record<string, unknown>)[k], values), COMMA);
      return kind(n, CLOSE_OBJECT);
    }
    default:
      throw new Unencodable();
  }
}

/** The items as one string, or undefined when they must go by structured clone. */
export function encodeItems(items: readonly SitemapItem[]): string | undefined {
  const templates: string[] = [];
  const out: string[] = [];
  const stamp = ++message;
  try {
    for (const item of items) {
      const at = out.length;
      out.push('');
      const end = walk(root, item, out);
      if (end.message !== stamp) {
        if (templates.length >= MAX_TEMPLATES) return undefined;
        end.message = stamp;
        end.id = templates.length;
        templates.push(end.template);
      }
      out[at] = String(end.id);
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
