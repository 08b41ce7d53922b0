/**
 * What runs inside a rendered page. The init script (before any of the page's own scripts) records
 * client-side navigations: a single-page application's router calls `history.pushState` /
 * `replaceState` instead of loading a page, so those URLs are links a crawler must count even when
 * no `<a href>` names them. The read at the end serialises the DOM as it is then (the page layer's
 * reader parses it as it parses raw HTML: one reader, one set of rules) with those navigations.
 */

/** Installed in every document of a rendering context, before the page's scripts run. */
export const INIT_SCRIPT = `(() => {
  const seen = [];
  Object.defineProperty(window, '__sitemapkitNavigations', { value: seen, enumerable: false });
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name];
    history[name] = function (state, title, url) {
      if (url !== undefined && url !== null) {
        try { seen.push(new URL(String(url), document.baseURI).href); } catch {}
      }
      return original.apply(this, arguments);
    };
  }
})();`;

/** What {@link READ_SCRIPT} returns. */
export interface PageRead {
  html: string;
  url: string;
  navigations: string[];
}

/**
 * Scrolls to the end (lazily loaded sections watch for it) and resolves after two frames, by when
 * an IntersectionObserver has fired and its requests have started (a timer bounds the wait where
 * frames are throttled).
 */
export const SCROLL_SCRIPT = `new Promise((resolve) => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  setTimeout(resolve, 100);
  requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
})`;

/** Serialises the rendered document, with the doctype, and the navigations it made. */
export const READ_SCRIPT = `(() => {
  const d = document.doctype;
  const doctype = d ? '<!DOCTYPE ' + d.name + '>' : '';
  return {
    html: doctype + document.documentElement.outerHTML,
    url: location.href,
    navigations: Array.from(window.__sitemapkitNavigations || []),
  };
})()`;
