/**
 * The document level of an XML sitemap or feed: the format its root element gives (or the refusal
 * of an HTML page or an unknown root), and what declarations, the scanner's findings and unknown
 * elements are as diagnostics.
 */
import { clip } from './field-values.js';
import type { NamespaceScope, Resolved } from './namespace-scope.js';
import { NS_NONE, NS_OTHER, NS_SITEMAP } from './namespaces.js';
import type { DocumentReporter, Where } from './reporter.js';
import type { DocumentSink } from './sink.js';
import { C_CHANNEL, C_FEED, C_INDEX, C_RSS, C_SKIP, C_URLSET } from './xml-contexts.js';
import type { XmlErrorKind } from './xml-entities.js';

/**
 * The context of the root element, once the format it gives is set on `sink`; C_SKIP when the
 * document is not a sitemap or a feed (after `refuse()`, which stops the reading).
 */
export function openRoot(
  el: Resolved,
  qname: string,
  at: Where,
  sink: DocumentSink,
  ns: NamespaceScope,
  refuse: () => void,
): number {
  const local = el.local;
  if (local === 'urlset' || local === 'sitemapindex') {
    ns.setCore(el.uri);
    if (el.ns === NS_NONE) {
      sink.rep.report('namespace-missing', `<${qname}> declares no namespace; read as a sitemap`, at);
    } else if (el.ns !== NS_SITEMAP) {
      sink.rep.report(
        'namespace-wrong',
        `<${qname}> is in namespace "${clip(el.uri)}"; read as a sitemap`,
        at,
      );
    } else if (el.prefixed) {
      sink.rep.report('namespace-prefixed', `the sitemap namespace is bound to a prefix (<${qname}>)`, at);
    }
    sink.setFormat(local === 'urlset' ? 'urlset' : 'sitemapindex');
    return local === 'urlset' ? C_URLSET : C_INDEX;
  }
  if (local === 'rss') {
    sink.setFormat('rss');
    return C_RSS;
  }
  if (local === 'RDF') {
    sink.setFormat('rss');
    return C_CHANNEL;
  }
  if (local === 'feed') {
    sink.setFormat('atom');
    return C_FEED;
  }
  refuse();
  if (local.toLowerCase() === 'html') {
    sink.rep.report('html-not-sitemap', 'this is an HTML page (<html>), not a sitemap; nothing read', at);
  } else {
    sink.rep.report(
      'format-unknown',
      `the root element <${qname}> is not urlset, sitemapindex, rss or feed; nothing read`,
      at,
    );
  }
  return C_SKIP;
}

/** An element the format does not read: once per namespace, or per name outside a namespace of its own. */
export function reportUnknown(rep: DocumentReporter, el: Resolved, qname: string, at: Where): void {
  if (el.ns === NS_OTHER && !el.core) {
    // Other namespaces are how the protocol lets people extend sitemaps (xsd:any ##other).
    rep.once(
      'element-unknown',
      `<${qname}> (namespace "${clip(el.uri)}") is not read`,
      at,
      `unknown:${el.uri}`,
    );
    return;
  }
  rep.once('element-unknown', `<${qname}> is not an element of this format; ignored`, at, `unknown:${qname}`);
}

/** A `<!DOCTYPE` or other markup declaration, after which nothing is read. */
export function reportDeclaration(rep: DocumentReporter, keyword: string, at: Where, preview: string): void {
  if (keyword.toUpperCase() === 'DOCTYPE' && /^\s+html\b/i.test(preview)) {
    rep.report('html-not-sitemap', 'this is an HTML page (<!DOCTYPE html>), not a sitemap; nothing read', at);
    return;
  }
  rep.report(
    'xml-doctype',
    `<!${keyword}> declarations are refused (entity expansion and external fetches); nothing is read from this document`,
    at,
  );
}

/** A finding of the scanner, as the diagnostic it is. */
export function reportXmlError(rep: DocumentReporter, kind: XmlErrorKind, message: string, at: Where): void {
  switch (kind) {
    case 'bare-ampersand':
      rep.report('xml-bare-ampersand', message, at);
      break;
    case 'entity':
      rep.report('xml-entity', message, at);
      break;
    case 'truncated':
      rep.once('xml-truncated', `${message}; every complete entry before the break was kept`, at);
      break;
    case 'too-deep':
      rep.report('xml-too-deep', message, at);
      break;
    default:
      rep.report('xml-not-well-formed', message, at);
  }
}
