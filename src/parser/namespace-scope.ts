/**
 * The namespace declarations in scope while an XML document is read, and what each element name
 * resolves to. A resolution is cached by qualified name until the scope changes (a declaration
 * opens or closes, or the root names the core namespace): a sitemap repeats a handful of names
 * thousands of times.
 */
import { clip } from './field-values.js';
import {
  CONVENTIONAL_PREFIXES,
  classifyNamespace,
  NS_NONE,
  NS_OTHER,
  NS_SITEMAP,
  namespaceUri,
} from './namespaces.js';
import type { DocumentReporter, Where } from './reporter.js';
import { parseAttributes, type XmlErrorKind } from './xml-entities.js';

const CORE_ORDER: Readonly<Record<string, number>> = { loc: 0, lastmod: 1, changefreq: 2, priority: 3 };

/** An element name, resolved. */
export interface Resolved {
  ns: number;
  local: string;
  uri: string;
  prefixed: boolean;
  /** In the sitemap namespace, no namespace, or the root's (possibly wrong) one. */
  core: boolean;
  /** XSD position among <url>'s core children (loc 0 … priority 3), or -1. */
  order: number;
}

/** Names kept for the === lookup (a urlset with every extension uses about forty). */
const RECENT_NAMES = 16;

export class NamespaceScope {
  readonly #rep: DocumentReporter;
  readonly #where: (offset: number) => Where;
  readonly #onError: (kind: XmlErrorKind, message: string, at: number) => void;
  readonly #frames: Array<{ depth: number; map: Map<string, string> }> = [];
  readonly #cache = new Map<string, Resolved>();
  /**
   * The last names resolved, compared with ===: a sitemap uses a handful of names, and each
   * element's name is a fresh string, whose hash a Map lookup would compute each time (a call
   * into the runtime that cost a tenth of the parse).
   */
  #recentNames: string[] = [];
  #recent: Resolved[] = [];
  /** The root's namespace URI: children in it are core elements even when it is a wrong one. */
  #coreUri = '';
  /** Changes whenever what a name resolves to may change (a declaration in or out of scope, the root's URI). */
  generation = 0;

  /** `where` turns an offset into a position, only when something is reported. */
  constructor(
    rep: DocumentReporter,
    where: (offset: number) => Where,
    onError: (kind: XmlErrorKind, message: string, at: number) => void,
  ) {
    this.#rep = rep;
    this.#where = where;
    this.#onError = onError;
  }

  /** Takes the xmlns declarations among the raw attributes of an element at `depth`. */
  declare(attrs: string, start: number, depth: number): void {
    let map: Map<string, string> | undefined;
    for (const a of parseAttributes(attrs, start, this.#onError)) {
      if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) {
        map ??= new Map();
        map.set(a.name === 'xmlns' ? '' : a.name.slice(6), a.value.trim());
      }
    }
    if (map === undefined) return;
    this.#frames.push({ depth, map });
    this.#clear();
  }

  /** The element at `depth` closed: its declarations go out of scope. */
  leave(depth: number): void {
    const frames = this.#frames;
    if (frames.length > 0 && frames[frames.length - 1]!.depth === depth) {
      frames.pop();
      this.#clear();
    }
  }

  /** Names the root's namespace; resolutions made so far did not know it. */
  setCore(uri: string): void {
    this.#coreUri = uri;
    this.#clear();
  }

  resolve(qname: string, start: number): Resolved {
    const names = this.#recentNames;
    for (let i = 0; i < names.length; i++) if (names[i] === qname) return this.#recent[i]!;
    let hit = this.#cache.get(qname);
    if (hit === undefined) hit = this.#resolve(qname, start);
    if (names.length < RECENT_NAMES) {
      names.push(qname);
      this.#recent.push(hit);
    }
    return hit;
  }

  /**
   * What `qname` resolves to, or undefined when resolving it would report something (an
   * undeclared prefix, a namespace that is not exact): a lookup without findings, for the reader
   * of simple `<url>` elements (xml-simple-url.ts), which leaves anything reported to the general path.
   */
  quiet(qname: string): Resolved | undefined {
    const colon = qname.indexOf(':');
    const uri = this.#lookup(colon === -1 ? '' : qname.slice(0, colon));
    if (uri === undefined) return undefined;
    const c = classifyNamespace(uri);
    if (!c.exact) return undefined;
    const local = colon === -1 ? qname : qname.slice(colon + 1);
    const core = c.ns === NS_SITEMAP || c.ns === NS_NONE || (uri === this.#coreUri && this.#coreUri !== '');
    return {
      ns: c.ns,
      local,
      uri,
      prefixed: colon !== -1,
      core,
      order: core ? (CORE_ORDER[local] ?? -1) : -1,
    };
  }

  #clear(): void {
    this.generation++;
    this.#cache.clear();
    this.#recentNames = [];
    this.#recent = [];
  }

  #resolve(qname: string, start: number): Resolved {
    const colon = qname.indexOf(':');
    const prefix = colon === -1 ? '' : qname.slice(0, colon);
    const local = colon === -1 ? qname : qname.slice(colon + 1);
    const uri = this.#lookup(prefix);
    let ns: number;
    if (uri === undefined) {
      const conventional = CONVENTIONAL_PREFIXES.get(prefix);
      ns = conventional ?? NS_OTHER;
      this.#rep.once(
        'namespace-undeclared',
        conventional === undefined
          ? `prefix "${prefix}:" is not declared; <${qname}> ignored`
          : `prefix "${prefix}:" is not declared; read as ${namespaceUri(conventional)}`,
        this.#where(start),
        `undeclared:${prefix}`,
      );
    } else {
      const c = classifyNamespace(uri);
      ns = c.ns;
      if (!c.exact) {
        this.#rep.once(
          'namespace-wrong',
          `namespace "${clip(uri)}" is not exact; read as ${namespaceUri(ns)}`,
          this.#where(start),
          `wrong:${uri}`,
        );
      }
    }
    const u = uri ?? '';
    const core = ns === NS_SITEMAP || ns === NS_NONE || (u === this.#coreUri && this.#coreUri !== '');
    const r: Resolved = {
      ns,
      local,
      uri: u,
      prefixed: colon !== -1,
      core,
      order: core ? (CORE_ORDER[local] ?? -1) : -1,
    };
    this.#cache.set(qname, r);
    return r;
  }

  #lookup(prefix: string): string | undefined {
    const frames = this.#frames;
    for (let i = frames.length - 1; i >= 0; i--) {
      const uri = frames[i]!.map.get(prefix);
      if (uri !== undefined) return uri;
    }
    return prefix === '' ? '' : undefined;
  }
}
