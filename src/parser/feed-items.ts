/**
 * RSS 2.0 / RSS 1.0 channels and their items, mRSS media, Atom feeds and their entries: which
 * element opens an item and which of an item's children the entry model reads. An item becomes a
 * page entry when it closes (`finishFeedItem` in records.ts).
 */
import { urlValue } from './field-values.js';
import type { Resolved } from './namespace-scope.js';
import { NS_ATOM, NS_MEDIA, NS_NONE, NS_OTHER, NS_RSS1 } from './namespaces.js';
import { append, attr, keepLoc } from './records.js';
import {
  C_CHANNEL,
  C_ENTRY,
  C_FEED,
  C_ITEM,
  C_MEDIA_GROUP,
  C_RSS,
  C_SKIP,
  type ElementHost,
} from './xml-contexts.js';

const DC_NS = 'http://purl.org/dc/elements/1.1/';

/** The context of an element opened inside a feed; `parent` is the context of its parent. */
export function openInFeed(
  host: ElementHost,
  parent: number,
  el: Resolved,
  qname: string,
  attrs: string,
  start: number,
): number {
  switch (parent) {
    case C_RSS:
      return el.local === 'channel' ? C_CHANNEL : C_SKIP;
    case C_CHANNEL:
      if (el.local !== 'item' || (el.ns !== NS_NONE && el.ns !== NS_RSS1)) return C_SKIP;
      host.page = { at: host.pos(start), hadLoc: false, order: 0, seen: 0 };
      return C_ITEM;
    case C_FEED:
      if (el.local !== 'entry' || (el.ns !== NS_ATOM && el.ns !== NS_NONE)) return C_SKIP;
      host.page = { at: host.pos(start), hadLoc: false, order: 0, seen: 0 };
      return C_ENTRY;
  }
  const page = host.page!;
  if (el.ns === NS_MEDIA) {
    switch (el.local) {
      case 'group':
        return C_MEDIA_GROUP;
      case 'content': {
        const a = host.attributes(attrs, start, qname);
        const url = attr(a, 'url');
        if (url !== undefined && url !== '') {
          page.media = append(page.media, {
            url,
            medium: (attr(a, 'medium') ?? '').toLowerCase(),
            type: (attr(a, 'type') ?? '').toLowerCase(),
            duration: attr(a, 'duration') ?? '',
          });
        }
        return C_SKIP;
      }
      case 'thumbnail': {
        const url = attr(host.attributes(attrs, start, qname), 'url');
        if (url !== undefined && url !== '') page.thumbnails = append(page.thumbnails, url);
        return C_SKIP;
      }
      case 'player': {
        const url = attr(host.attributes(attrs, start, qname), 'url');
        if (url !== undefined && url !== '') page.player ??= url;
        return C_SKIP;
      }
      case 'title':
      case 'description':
        return host.startField('media', el.local, start);
    }
    return C_SKIP;
  }
  if (parent === C_MEDIA_GROUP) return C_SKIP;
  if (parent === C_ENTRY) {
    if (el.ns !== NS_ATOM && el.ns !== NS_NONE) return C_SKIP;
    switch (el.local) {
      case 'link': {
        const a = host.attributes(attrs, start, qname);
        const href = attr(a, 'href');
        if ((attr(a, 'rel') ?? 'alternate') === 'alternate' && href !== undefined && !page.hadLoc) {
          page.hadLoc = true;
          keepLoc(page, href, urlValue(href, host.rep, host.recordAt(host.pos(start), 'loc')));
        }
        return C_SKIP;
      }
      case 'updated':
      case 'modified':
      case 'published':
      case 'issued':
        return host.startField('date', el.local, start);
    }
    return C_SKIP;
  }
  // RSS 2.0 / 1.0 item.
  if (el.ns === NS_OTHER && el.uri === DC_NS && el.local === 'date')
    return host.startField('date', 'dcdate', start);
  if (el.ns !== NS_NONE && el.ns !== NS_RSS1) return C_SKIP;
  switch (el.local) {
    case 'link':
      return host.startField('item', 'link', start);
    case 'guid':
      return host.startField('item', 'guid', start, attrs, qname);
    case 'pubDate':
      return host.startField('date', 'pubDate', start);
    case 'title':
      return host.startField('item', 'title', start);
    case 'description':
      return host.startField('item', 'description', start);
  }
  return C_SKIP;
}
