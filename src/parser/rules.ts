/**
 * The parser's diagnostic codes. They are public API, shared with the validator (issue 5): a code
 * is never renamed or reused. Severity here is the parser's view: `error` means something could
 * not be read (an entry, a field the search engines need, or the rest of a document); `warning`
 * means a value was dropped or repaired; `info` marks a tolerated oddity. URL problems use the
 * codes of the shared URL rule (`src/core/url.ts`).
 */
import type { RuleInfo } from '../core/diagnostics.js';
import type { UrlRuleCode } from '../core/url.js';

export type ParserRuleCode =
  | UrlRuleCode
  | 'document-empty'
  | 'format-unknown'
  | 'html-not-sitemap'
  | 'bom'
  | 'encoding-not-utf8'
  | 'encoding-invalid'
  | 'gzip-invalid'
  | 'gzip-nested'
  | 'sitemap-too-large'
  | 'download-too-large'
  | 'fetch-failed'
  | 'fetch-status'
  | 'fetch-redirect'
  | 'xml-doctype'
  | 'xml-not-well-formed'
  | 'xml-bare-ampersand'
  | 'xml-entity'
  | 'xml-truncated'
  | 'xml-too-deep'
  | 'xml-leading-junk'
  | 'xml-declaration-misplaced'
  | 'xml-cdata'
  | 'xml-comment'
  | 'namespace-missing'
  | 'namespace-wrong'
  | 'namespace-prefixed'
  | 'namespace-undeclared'
  | 'element-unknown'
  | 'element-order'
  | 'element-duplicate'
  | 'value-whitespace'
  | 'value-too-long'
  | 'value-invalid'
  | 'too-many-children'
  | 'loc-missing'
  | 'lastmod-invalid'
  | 'lastmod-not-w3c'
  | 'lastmod-not-xsd'
  | 'changefreq-invalid'
  | 'priority-invalid'
  | 'image-invalid'
  | 'video-invalid'
  | 'news-invalid'
  | 'alternate-invalid'
  | 'alternate-no-hreflang'
  | 'too-many-urls'
  | 'too-many-sitemaps'
  | 'sitemap-empty'
  | 'text-blank-line'
  | 'text-comment'
  | 'text-crlf'
  | 'text-junk-line'
  | 'feed-item-no-link'
  | 'index-cycle'
  | 'index-duplicate'
  | 'index-nested'
  | 'index-loc-bare'
  | 'index-loc-repeated'
  | 'index-depth'
  | 'tree-limit'
  | 'discover-none'
  | 'diagnostics-suppressed';

/** Every code the parser emits, with its severity, what it means and the fix. */
export const PARSER_RULES: Record<ParserRuleCode, RuleInfo> = {
  'url-invalid': {
    severity: 'error',
    summary:
      'A URL cannot be parsed, is relative, carries credentials, or is written in a way a lenient reader silently repairs into another URL (http:/host, http:host, a backslash, https:///host, a TAB or line break, an empty host label, an underscore in the host, IPv4 shorthand, two URLs in one value); an entry whose loc it is was dropped.',
    fix: 'Write absolute URLs as RFC 3986 and RFC 9110 define them, such as https://www.example.com/page, one per element.',
  },
  'url-scheme': {
    severity: 'error',
    summary:
      'A URL uses a scheme other than http or https; an entry whose loc it is was dropped, and it is never fetched.',
    fix: 'List only http(s) URLs; sitemapkit never fetches other schemes.',
  },
  'url-too-short': {
    severity: 'error',
    summary: 'A URL is shorter than the 12 characters the XSD requires (kept).',
    fix: 'Write the full URL, with scheme and host.',
  },
  'url-too-long': {
    severity: 'error',
    summary: 'A URL has 2,048 characters or more once encoded (kept).',
    fix: 'Shorten the URL; search engines ignore longer ones.',
  },
  'url-outside-location': {
    severity: 'error',
    summary:
      "A URL is outside the sitemap's folder, scheme, host or port (sitemaps.org location rule), and no robots.txt cross-submits it (kept).",
    fix: "Move the sitemap to the site's root, or cross-submit it with a Sitemap: line in that host's robots.txt.",
  },
  'document-empty': {
    severity: 'error',
    summary: 'The document holds no content at all.',
    fix: 'Check that the server returns the sitemap and not an empty body.',
  },
  'format-unknown': {
    severity: 'error',
    summary: 'The content is none of the formats: urlset, sitemapindex, plain text, RSS or Atom.',
    fix: 'Serve a sitemap: <urlset>, <sitemapindex>, one URL a line, RSS 2.0 or Atom.',
  },
  'html-not-sitemap': {
    severity: 'error',
    summary: 'An HTML page was served where a sitemap was expected (often a soft 404 or a login page).',
    fix: 'Point to the sitemap file itself and make the server return it with status 200.',
  },
  bom: {
    severity: 'info',
    summary: 'The document starts with a UTF-8 byte order mark.',
    fix: 'Nothing needed; some old readers stumble on it, so writing without a BOM is safer.',
  },
  'encoding-not-utf8': {
    severity: 'warning',
    summary: 'The document is not UTF-8 (it declares another encoding or starts with a UTF-16 BOM).',
    fix: 'Save and serve sitemaps as UTF-8, as the protocol requires.',
  },
  'encoding-invalid': {
    severity: 'warning',
    summary: 'Bytes that are not valid UTF-8 were replaced by U+FFFD.',
    fix: 'Re-encode the file as UTF-8.',
  },
  'gzip-invalid': {
    severity: 'error',
    summary: 'The gzip stream is corrupt or ends early; entries read before the break are kept.',
    fix: 'Re-compress the file and check that uploads are not cut short.',
  },
  'gzip-nested': {
    severity: 'error',
    summary: 'The content is still gzip after one decompression (gzip inside gzip); it is not read further.',
    fix: 'Compress once: serve file.xml.gz without an extra Content-Encoding: gzip, or the reverse.',
  },
  'sitemap-too-large': {
    severity: 'error',
    summary:
      'The document is larger than the cap (by default 52,428,800 bytes uncompressed); reading stopped at the cap.',
    fix: 'Split the sitemap into files of at most 50,000 URLs and 50 MiB, listed in a sitemap index.',
  },
  'download-too-large': {
    severity: 'error',
    summary: 'The response body is larger than the download cap; reading stopped there.',
    fix: 'Split the sitemap, or raise the cap (maxDownloadBytes) if the file is trusted.',
  },
  'fetch-failed': {
    severity: 'error',
    summary: 'A sitemap could not be fetched (network error, refused connection, timeout).',
    fix: 'Check that the URL is reachable from here; raise timeoutMs for slow servers.',
  },
  'fetch-status': {
    severity: 'error',
    summary: 'A sitemap URL answered with a status other than 2xx.',
    fix: 'Fix or remove the URL; a sitemap must answer 200.',
  },
  'fetch-redirect': {
    severity: 'error',
    summary: 'Too many redirects (more than 5), a redirect loop, or a redirect to a non-http(s) URL.',
    fix: 'Link to the final URL of the sitemap.',
  },
  'xml-doctype': {
    severity: 'error',
    summary:
      'A DOCTYPE or ENTITY declaration: refused (entity attacks, external fetches); nothing is read from the document.',
    fix: 'Remove the DOCTYPE: sitemaps never need one.',
  },
  'xml-not-well-formed': {
    severity: 'error',
    summary: 'The XML is not well formed (mismatched or malformed tags, text outside the root).',
    fix: 'Generate the file with an XML library rather than string concatenation; check it with xmllint --noout.',
  },
  'xml-bare-ampersand': {
    severity: 'error',
    summary: 'A bare & in text; it was read as a literal &.',
    fix: 'Escape & as &amp; (for example in query strings: ?a=1&amp;b=2).',
  },
  'xml-entity': {
    severity: 'error',
    summary:
      'An entity other than &amp; &lt; &gt; &quot; &apos;, or an invalid character reference; it was kept as text.',
    fix: 'Use only the five predefined entities and numeric character references of valid characters.',
  },
  'xml-truncated': {
    severity: 'error',
    summary:
      'The document ends before its root element closes; every complete entry before the break is kept.',
    fix: 'Check that the file is written completely (atomically) and not cut short in transit.',
  },
  'xml-too-deep': {
    severity: 'error',
    summary: 'Elements are nested deeper than the depth cap; reading stopped.',
    fix: 'Sitemaps need about 5 levels; remove the runaway nesting.',
  },
  'xml-leading-junk': {
    severity: 'error',
    summary: 'Text precedes the XML (often a PHP warning); it was skipped.',
    fix: 'Make the first bytes of the response the <?xml declaration or the root element.',
  },
  'xml-declaration-misplaced': {
    severity: 'warning',
    summary: 'The <?xml ?> declaration is not at the very start of the document.',
    fix: 'Remove the whitespace or blank lines before <?xml.',
  },
  'xml-cdata': {
    severity: 'info',
    summary: 'CDATA sections are used (reported once per document).',
    fix: 'Nothing needed; escaping values is the more common form.',
  },
  'xml-comment': {
    severity: 'info',
    summary: 'Comments are present (reported once per document).',
    fix: 'Nothing needed.',
  },
  'namespace-missing': {
    severity: 'warning',
    summary: 'The root element declares no namespace; read as the sitemap namespace.',
    fix: 'Add xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" to the root element.',
  },
  'namespace-wrong': {
    severity: 'warning',
    summary: 'A namespace is a known misspelling or an old version (https, 0.84); read as the right one.',
    fix: 'Use the exact namespace URIs, for example http://www.sitemaps.org/schemas/sitemap/0.9.',
  },
  'namespace-prefixed': {
    severity: 'info',
    summary: 'The sitemap namespace is bound to a prefix (<sm:urlset>); valid XML, but some readers miss it.',
    fix: 'Declare the sitemap namespace as the default namespace.',
  },
  'namespace-undeclared': {
    severity: 'warning',
    summary:
      'An element uses a prefix that no xmlns declares; well-known prefixes (image, video, news, xhtml) are read anyway.',
    fix: 'Declare the prefix on the root element, for example xmlns:image="http://www.google.com/schemas/sitemap-image/1.1".',
  },
  'element-unknown': {
    severity: 'info',
    summary:
      'An element the sitemap formats do not define; it was ignored (reported once per name and document).',
    fix: 'Remove it, or put your own data in your own namespace.',
  },
  'element-order': {
    severity: 'info',
    summary:
      'Children of <url> are not in the XSD order loc, lastmod, changefreq, priority, extensions (reported once per document).',
    fix: 'Write the children in XSD order if the file must validate against the XSD.',
  },
  'element-duplicate': {
    severity: 'warning',
    summary: 'An element that may appear once appears again; the first is kept.',
    fix: 'Remove the repeated element.',
  },
  'value-whitespace': {
    severity: 'info',
    summary:
      'Values are padded with whitespace or line breaks; they were trimmed (reported once per document).',
    fix: 'Write values without surrounding whitespace.',
  },
  'value-too-long': {
    severity: 'error',
    summary: 'A value is longer than the value cap (64 KiB); it was dropped.',
    fix: 'Shorten the value; no sitemap field needs that much text.',
  },
  'value-invalid': {
    severity: 'warning',
    summary:
      'A field has a value of the wrong type or outside its set (yes/no, number, relationship); it was dropped.',
    fix: 'Write one of the values the extension documents allow.',
  },
  'too-many-children': {
    severity: 'warning',
    summary:
      'An entry has more than 1,000 images, videos, alternates or other repeated children; the rest were dropped.',
    fix: 'Keep at most 1,000 images per URL (Google) and split the rest over pages.',
  },
  'loc-missing': {
    severity: 'error',
    summary: 'An entry has no <loc> (or no usable URL); it was dropped.',
    fix: 'Give every <url> and <sitemap> a <loc> with an absolute URL.',
  },
  'lastmod-invalid': {
    severity: 'warning',
    summary:
      'A lastmod is not a W3C Datetime; dropped, or converted to UTC when it is an unambiguous HTTP date.',
    fix: 'Write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss with Z or an offset.',
  },
  'lastmod-not-w3c': {
    severity: 'warning',
    summary:
      'A lastmod the XSD accepts but W3C Datetime does not (no time zone, or a date with a zone); kept as written.',
    fix: 'Add a time zone to times, and drop zones from plain dates.',
  },
  'lastmod-not-xsd': {
    severity: 'info',
    summary:
      'A lastmod that W3C Datetime allows but the XSD rejects (year, year-month, minutes without seconds); kept.',
    fix: 'Write YYYY-MM-DD or a full time with seconds, which both accept.',
  },
  'changefreq-invalid': {
    severity: 'warning',
    summary:
      'changefreq is not one of always, hourly, daily, weekly, monthly, yearly, never; dropped (or lower-cased).',
    fix: 'Use one of the seven lower-case values, or leave changefreq out (Google ignores it).',
  },
  'priority-invalid': {
    severity: 'warning',
    summary: 'priority is not a number from 0.0 to 1.0; dropped.',
    fix: 'Use a decimal from 0.0 to 1.0, or leave priority out (Google ignores it).',
  },
  'image-invalid': {
    severity: 'warning',
    summary: 'An <image:image> has no usable <image:loc>; the image was dropped.',
    fix: 'Give every image an <image:loc> with an absolute URL.',
  },
  'video-invalid': {
    severity: 'warning',
    summary:
      'A <video:video> lacks thumbnail_loc, title or description (dropped), or both content_loc and player_loc (kept).',
    fix: 'Give every video thumbnail_loc, title, description and content_loc or player_loc.',
  },
  'news-invalid': {
    severity: 'warning',
    summary: 'A <news:news> lacks publication name or language, publication_date or title; it was dropped.',
    fix: 'Give every news entry its publication (name, language), publication_date and title.',
  },
  'alternate-invalid': {
    severity: 'warning',
    summary: 'An <xhtml:link> lacks rel or href, or its href is unusable; it was dropped.',
    fix: 'Write <xhtml:link rel="alternate" hreflang="de" href="https://..."/>.',
  },
  'alternate-no-hreflang': {
    severity: 'warning',
    summary:
      'An <xhtml:link> that is not an hreflang alternate (rel="amphtml", an android-app:// app link, a separate mobile URL with media): kept in the entry\'s links with its rel; many readers drop it, as sitemaps define <xhtml:link> for hreflang alternates.',
    fix: "Also put the link into the page's <head>, where every search engine reads it.",
  },
  'too-many-urls': {
    severity: 'error',
    summary: 'A sitemap lists more than 50,000 URLs; all are read, but search engines may reject the file.',
    fix: 'Split it into files of at most 50,000 URLs behind a sitemap index.',
  },
  'too-many-sitemaps': {
    severity: 'error',
    summary: 'A sitemap index lists more than 50,000 sitemaps.',
    fix: 'Split it into several indexes and submit each.',
  },
  'sitemap-empty': {
    severity: 'warning',
    summary: 'The sitemap, index or feed holds no entries.',
    fix: 'List at least one URL, or stop linking to the empty file.',
  },
  'text-blank-line': {
    severity: 'info',
    summary: 'A text sitemap has blank lines (reported once per document).',
    fix: 'Nothing needed; the protocol asks for URLs only.',
  },
  'text-comment': {
    severity: 'info',
    summary: 'A text sitemap has # comment lines (reported once per document); they were skipped.',
    fix: 'Remove them: a text sitemap should contain nothing but URLs.',
  },
  'text-crlf': {
    severity: 'info',
    summary: 'A text sitemap uses CRLF line ends (reported once per document).',
    fix: 'Nothing needed.',
  },
  'text-junk-line': {
    severity: 'warning',
    summary: 'A line of a text sitemap is not a URL; it was skipped.',
    fix: 'Write one absolute URL per line and nothing else.',
  },
  'feed-item-no-link': {
    severity: 'warning',
    summary: 'An RSS item or Atom entry has no link to a page; it was skipped.',
    fix: 'Give every item a <link> (RSS) or <link rel="alternate" href> (Atom).',
  },
  'index-cycle': {
    severity: 'warning',
    summary:
      'A sitemap index lists itself or one of its parents (directly or through a redirect); not followed again.',
    fix: 'Remove the entry that points back up the tree.',
  },
  'index-duplicate': {
    severity: 'info',
    summary: 'A sitemap was already read through another index or root; not read again.',
    fix: 'List each sitemap once.',
  },
  'index-loc-bare': {
    severity: 'warning',
    summary: 'A <sitemap> of an index holds its URL as text, without <loc>; read as its <loc>.',
    fix: 'Write <sitemap><loc>https://...</loc></sitemap>.',
  },
  'index-loc-repeated': {
    severity: 'warning',
    summary:
      'A <sitemap> of an index holds a second <loc>: read as the next child sitemap, whose </sitemap><sitemap> is missing.',
    fix: 'Give every child sitemap its own <sitemap> element.',
  },
  'index-nested': {
    severity: 'info',
    summary:
      'A sitemap index lists another sitemap index; followed, but the protocol does not allow nesting.',
    fix: 'List the child sitemaps directly in one index.',
  },
  'index-depth': {
    severity: 'error',
    summary: 'Sitemap indexes are nested deeper than the depth cap; the deeper ones were not read.',
    fix: 'Flatten the tree: an index should list sitemaps, not other indexes.',
  },
  'tree-limit': {
    severity: 'error',
    summary: 'The cap on sitemaps or URLs per tree was reached; the rest was not read.',
    fix: 'Raise maxSitemaps / maxUrls if the site is really that large.',
  },
  'discover-none': {
    severity: 'error',
    summary: 'No sitemap was found: robots.txt lists none and no well-known path answers with one.',
    fix: 'Publish a sitemap and list it in robots.txt with a Sitemap: line.',
  },
  'diagnostics-suppressed': {
    severity: 'info',
    summary: 'A code was reported 100 times in one document; further occurrences were counted, not reported.',
    fix: 'Fix the first occurrences; the rest are usually the same mistake.',
  },
};
