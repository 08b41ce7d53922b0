/**
 * `render: 'auto'`: which pages are worth a browser. Pure rules, no I/O. A page without a script is
 * never rendered (its DOM is its HTML). One with scripts is rendered when its raw HTML looks like
 * an application shell (little text, an element an app mounts into, and
 * scripts), or when it is one of the first pages of its URL template (the path with its variable
 * parts as `*`): a template whose sampled pages gained nothing from rendering (no link, robots
 * directive or canonical that the raw HTML lacks) is not sampled any more; one where rendering
 * found more is rendered from then on.
 */

/** Visible characters below which a page with scripts and a mount point is a shell. */
export const SHELL_TEXT = 200;
/** Pages of a template rendered to learn whether rendering adds anything there. */
export const TEMPLATE_SAMPLE = 3;

/** The ids and tags application frameworks mount into (React, Vue, Next, Nuxt, Gatsby, Svelte, Angular, Ember). */
const MOUNT =
  /<(?:[a-z][a-z0-9-]*\s[^>]*\bid\s*=\s*["']?(?:root|app|main-app|__next|__nuxt|___gatsby|svelte|q-app|application)["'\s>]|app-root\b|[a-z][a-z0-9-]*\s[^>]*\b(?:data-reactroot|ng-version|data-server-rendered)\b)/i;

const SCRIPT = /<script\b/i;

/** The text a reader would see: without scripts, styles, templates, comments and tags. */
export function visibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z0-9#]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether raw HTML looks like a single-page application's shell. */
export function looksLikeShell(html: string): boolean {
  if (!SCRIPT.test(html)) return false;
  if (!MOUNT.test(html)) return false;
  return visibleText(html).length < SHELL_TEXT;
}

/**
 * A URL's template: its path with every segment that holds a digit, and its last segment, as `*`
 * (`/blog/2024/hello` → `/blog/*\/*`, `/docs/sql-select.html` → `/docs/*`, `/about` → `/*`; a
 * folder's own page keeps its path: `/docs/`), and its query's parameter names (values ignored).
 * Pages of one template are usually made by one piece of code: rendering either adds to all of
 * them or to none.
 */
export function urlTemplate(url: string): string {
  const u = new URL(url);
  const parts = u.pathname.split('/');
  const last = parts.length - 1;
  const path = parts.map((p, i) => (p !== '' && (/\d/.test(p) || i === last) ? '*' : p)).join('/');
  const names = [...new Set([...u.searchParams.keys()])].sort();
  return `${u.host}${path}${names.length === 0 ? '' : `?${names.join('&')}`}`;
}

interface TemplateState {
  sampled: number;
  gained: boolean;
}

/** What `render: 'auto'` has learnt of each template in this run. */
export class AutoRender {
  readonly #templates = new Map<string, TemplateState>();

  #state(url: string): TemplateState {
    const key = urlTemplate(url);
    let t = this.#templates.get(key);
    if (t === undefined) {
      t = { sampled: 0, gained: false };
      this.#templates.set(key, t);
    }
    return t;
  }

  /** Whether to render the page at `url` whose raw HTML is `html`. */
  wants(url: string, html: string): boolean {
    // Without a script the rendered DOM is the raw HTML: nothing to learn (a static site never
    // starts the browser).
    if (!SCRIPT.test(html)) return false;
    if (looksLikeShell(html)) return true;
    const t = this.#state(url);
    if (t.gained) return true;
    if (t.sampled >= TEMPLATE_SAMPLE) return false;
    t.sampled++;
    return true;
  }

  /** What rendering the page at `url` showed: `gained` when it found what the raw HTML lacks. */
  learn(url: string, gained: boolean): void {
    if (gained) this.#state(url).gained = true;
  }
}
