<?xml version="1.0" encoding="UTF-8"?>
<!--
  sitemapkit: a readable view of a sitemap or sitemap index, for people opening it in a browser.
  XSLT 1.0 (the only version browsers and xsltproc run). Self-contained: inline CSS and a small
  inline script that makes the columns sortable; nothing is loaded from the network.
  Referenced from sitemaps as <?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>.
  Browsers only apply it over http(s), not from file://, and are removing XSLT: see docs/html.md.
-->
<xsl:stylesheet version="1.0"
  xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
  xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
  xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
  xmlns:xhtml="http://www.w3.org/1999/xhtml"
  xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0"
  exclude-result-prefixes="s image video news xhtml mobile">

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:variable name="lower" select="'abcdefghijklmnopqrstuvwxyz'"/>
  <xsl:variable name="upper" select="'ABCDEFGHIJKLMNOPQRSTUVWXYZ'"/>

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="robots" content="noindex"/>
        <title>
          <xsl:choose>
            <xsl:when test="s:urlset">Sitemap: <xsl:value-of select="format-number(count(s:urlset/s:url), '#,##0')"/> URL<xsl:if test="count(s:urlset/s:url) != 1">s</xsl:if></xsl:when>
            <xsl:when test="s:sitemapindex">Sitemap index: <xsl:value-of select="format-number(count(s:sitemapindex/s:sitemap), '#,##0')"/> sitemap<xsl:if test="count(s:sitemapindex/s:sitemap) != 1">s</xsl:if></xsl:when>
            <xsl:otherwise>Not a sitemap</xsl:otherwise>
          </xsl:choose>
        </title>
        <!-- No favicon request: the view must not depend on anything but the sitemap and this file. -->
        <link rel="icon" href="data:,"/>
        <style>
          :root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --band: #f4f6f9; --accent: #1a5fb4; --bg: #fff; }
          @media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #a3abba; --line: #3a4150; --band: #1f242e; --accent: #8cb6ff; --bg: #161a21; } }
          * { box-sizing: border-box; }
          body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
          header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 20px; }
          header { padding-top: 24px; }
          h1 { font-size: 1.6rem; margin: 0 0 4px; }
          .lead { color: var(--muted); margin: 0 0 16px; }
          .lead strong { color: var(--fg); }
          .wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
          table { border-collapse: collapse; width: 100%; }
          caption { text-align: left; padding: 8px 12px; color: var(--muted); }
          th, td { padding: 6px 12px; text-align: left; border-bottom: 1px solid var(--line); vertical-align: top; }
          thead th { position: sticky; top: 0; background: var(--band); font-weight: 600; white-space: nowrap; }
          tbody tr:nth-child(even) { background: var(--band); }
          tbody tr:hover { outline: 1px solid var(--accent); outline-offset: -1px; }
          td.url { word-break: break-all; min-width: 20em; }
          td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
          td.n { color: var(--muted); }
          a { color: var(--accent); }
          th button { font: inherit; color: inherit; background: none; border: 0; padding: 0; cursor: pointer; }
          th button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
          th[aria-sort="ascending"] button::after { content: " \25B2"; }
          th[aria-sort="descending"] button::after { content: " \25BC"; }
          footer { color: var(--muted); font-size: 13px; padding-top: 12px; padding-bottom: 24px; }
          .empty { color: var(--muted); }
        </style>
      </head>
      <body>
        <xsl:choose>
          <xsl:when test="s:urlset"><xsl:apply-templates select="s:urlset"/></xsl:when>
          <xsl:when test="s:sitemapindex"><xsl:apply-templates select="s:sitemapindex"/></xsl:when>
          <xsl:otherwise>
            <header>
              <h1>Not a sitemap</h1>
              <p class="lead">The root element is <code><xsl:value-of select="name(*)"/></code> in the namespace
                <code><xsl:value-of select="namespace-uri(*)"/></code>; a sitemap has <code>urlset</code> or
                <code>sitemapindex</code> in <code>http://www.sitemaps.org/schemas/sitemap/0.9</code>.</p>
            </header>
          </xsl:otherwise>
        </xsl:choose>
        <footer>
          <p>This is an XML sitemap for search engines, shown readably by its stylesheet. Click a column heading to sort the table.
            Protocol: <a href="https://www.sitemaps.org/protocol.html">sitemaps.org</a>.</p>
        </footer>
        <script><![CDATA[
(function () {
  'use strict';
  // Sorting is an enhancement: without this script the table is complete, only in document order.
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  function key(cell, type) {
    var text = cell ? (cell.getAttribute('data-sort') || cell.textContent).trim() : '';
    if (text === '') return null;
    if (type === 'number') { var n = parseFloat(text); return isNaN(n) ? null : n; }
    if (type === 'date') { var t = Date.parse(text.length === 4 ? text + '-01-01' : text); return isNaN(t) ? null : t; }
    return text;
  }
  function sortBy(table, th, index) {
    var type = th.getAttribute('data-type') || 'text';
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    var heads = table.tHead.rows[0].cells;
    for (var h = 0; h < heads.length; h++) heads[h].removeAttribute('aria-sort');
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    var body = table.tBodies[0];
    var rows = [];
    for (var r = 0; r < body.rows.length; r++) {
      rows.push({ row: body.rows[r], key: key(body.rows[r].cells[index], type), at: r });
    }
    rows.sort(function (a, b) {
      // Empty cells go last in both directions; ties keep their order.
      if (a.key === null || b.key === null) return a.key === b.key ? a.at - b.at : a.key === null ? 1 : -1;
      var c = type === 'text' ? collator.compare(a.key, b.key) : a.key - b.key;
      return c !== 0 ? dir * c : a.at - b.at;
    });
    var frag = document.createDocumentFragment();
    for (var i = 0; i < rows.length; i++) frag.appendChild(rows[i].row);
    body.appendChild(frag);
  }
  var tables = document.querySelectorAll('table.sortable');
  for (var t = 0; t < tables.length; t++) {
    (function (table) {
      var heads = table.tHead.rows[0].cells;
      for (var c = 0; c < heads.length; c++) {
        (function (th, index) {
          var button = document.createElement('button');
          button.type = 'button';
          while (th.firstChild) button.appendChild(th.firstChild);
          th.appendChild(button);
          button.addEventListener('click', function () { sortBy(table, th, index); });
        })(heads[c], c);
      }
    })(tables[t]);
  }
})();
]]></script>
      </body>
    </html>
  </xsl:template>

  <!-- A link only for http(s) locations: a hostile sitemap must not get a javascript: link onto this origin. -->
  <xsl:template name="link">
    <xsl:param name="href"/>
    <xsl:variable name="u" select="normalize-space($href)"/>
    <xsl:variable name="scheme" select="translate(substring-before($u, '://'), $upper, $lower)"/>
    <xsl:choose>
      <xsl:when test="$scheme = 'http' or $scheme = 'https'"><a href="{$u}"><xsl:value-of select="$u"/></a></xsl:when>
      <xsl:otherwise><xsl:value-of select="$u"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="s:urlset">
    <xsl:variable name="images" select="boolean(s:url/image:image)"/>
    <xsl:variable name="videos" select="boolean(s:url/video:video)"/>
    <xsl:variable name="alternates" select="boolean(s:url/xhtml:link)"/>
    <xsl:variable name="news" select="boolean(s:url/news:news)"/>
    <xsl:variable name="mobile" select="boolean(s:url/mobile:mobile)"/>
    <!-- A column only when some URL has a value for it: many sitemaps give no changefreq or priority. -->
    <xsl:variable name="lastmods" select="boolean(s:url/s:lastmod[normalize-space()])"/>
    <xsl:variable name="changefreqs" select="boolean(s:url/s:changefreq[normalize-space()])"/>
    <xsl:variable name="priorities" select="boolean(s:url/s:priority[normalize-space()])"/>
    <header>
      <h1>Sitemap</h1>
      <p class="lead">
        <strong id="count"><xsl:value-of select="format-number(count(s:url), '#,##0')"/></strong>
        <xsl:choose><xsl:when test="count(s:url) = 1"> URL</xsl:when><xsl:otherwise> URLs</xsl:otherwise></xsl:choose>
        <xsl:if test="$images">, <xsl:value-of select="format-number(count(s:url/image:image), '#,##0')"/> images</xsl:if>
        <xsl:if test="$videos">, <xsl:value-of select="format-number(count(s:url/video:video), '#,##0')"/> videos</xsl:if>
        <xsl:if test="$news">, <xsl:value-of select="format-number(count(s:url/news:news), '#,##0')"/> news articles</xsl:if>
        <xsl:if test="$alternates">, <xsl:value-of select="format-number(count(s:url/xhtml:link), '#,##0')"/> alternate links</xsl:if>
      </p>
    </header>
    <main>
      <div class="wrap">
        <table class="sortable" id="urls">
          <thead>
            <tr>
              <th scope="col" class="num" data-type="number">#</th>
              <th scope="col">URL</th>
              <xsl:if test="$lastmods"><th scope="col" data-type="date">Last modified</th></xsl:if>
              <xsl:if test="$changefreqs"><th scope="col">Change frequency</th></xsl:if>
              <xsl:if test="$priorities"><th scope="col" class="num" data-type="number">Priority</th></xsl:if>
              <xsl:if test="$images"><th scope="col" class="num" data-type="number">Images</th></xsl:if>
              <xsl:if test="$videos"><th scope="col" class="num" data-type="number">Videos</th></xsl:if>
              <xsl:if test="$alternates"><th scope="col" class="num" data-type="number">Alternates</th></xsl:if>
              <xsl:if test="$news"><th scope="col" class="num" data-type="number">News</th></xsl:if>
              <xsl:if test="$mobile"><th scope="col">Mobile</th></xsl:if>
            </tr>
          </thead>
          <tbody>
            <xsl:for-each select="s:url">
              <tr>
                <td class="num n"><xsl:value-of select="position()"/></td>
                <td class="url"><xsl:call-template name="link"><xsl:with-param name="href" select="s:loc"/></xsl:call-template></td>
                <xsl:if test="$lastmods"><td><xsl:value-of select="normalize-space(s:lastmod)"/></td></xsl:if>
                <xsl:if test="$changefreqs"><td><xsl:value-of select="normalize-space(s:changefreq)"/></td></xsl:if>
                <xsl:if test="$priorities"><td class="num"><xsl:value-of select="normalize-space(s:priority)"/></td></xsl:if>
                <xsl:if test="$images"><td class="num"><xsl:value-of select="count(image:image)"/></td></xsl:if>
                <xsl:if test="$videos">
                  <td class="num">
                    <xsl:if test="video:video"><xsl:attribute name="title"><xsl:for-each select="video:video"><xsl:if test="position() != 1"> | </xsl:if><xsl:value-of select="normalize-space(video:title)"/></xsl:for-each></xsl:attribute></xsl:if>
                    <xsl:value-of select="count(video:video)"/>
                  </td>
                </xsl:if>
                <xsl:if test="$alternates">
                  <td class="num">
                    <xsl:if test="xhtml:link"><xsl:attribute name="title"><xsl:for-each select="xhtml:link"><xsl:if test="position() != 1">, </xsl:if><xsl:value-of select="@hreflang"/></xsl:for-each></xsl:attribute></xsl:if>
                    <xsl:value-of select="count(xhtml:link)"/>
                  </td>
                </xsl:if>
                <xsl:if test="$news">
                  <td class="num">
                    <xsl:if test="news:news"><xsl:attribute name="title"><xsl:value-of select="normalize-space(news:news/news:title)"/></xsl:attribute></xsl:if>
                    <xsl:value-of select="count(news:news)"/>
                  </td>
                </xsl:if>
                <xsl:if test="$mobile"><td><xsl:if test="mobile:mobile">yes</xsl:if></td></xsl:if>
              </tr>
            </xsl:for-each>
          </tbody>
        </table>
      </div>
    </main>
  </xsl:template>

  <xsl:template match="s:sitemapindex">
    <xsl:variable name="lastmods" select="boolean(s:sitemap/s:lastmod[normalize-space()])"/>
    <header>
      <h1>Sitemap index</h1>
      <p class="lead">
        <strong id="count"><xsl:value-of select="format-number(count(s:sitemap), '#,##0')"/></strong>
        <xsl:choose><xsl:when test="count(s:sitemap) = 1"> sitemap</xsl:when><xsl:otherwise> sitemaps</xsl:otherwise></xsl:choose>
        listed; open one to see its URLs.
      </p>
    </header>
    <main>
      <div class="wrap">
        <table class="sortable" id="sitemaps">
          <thead>
            <tr>
              <th scope="col" class="num" data-type="number">#</th>
              <th scope="col">Sitemap</th>
              <xsl:if test="$lastmods"><th scope="col" data-type="date">Last modified</th></xsl:if>
            </tr>
          </thead>
          <tbody>
            <xsl:for-each select="s:sitemap">
              <tr>
                <td class="num n"><xsl:value-of select="position()"/></td>
                <td class="url"><xsl:call-template name="link"><xsl:with-param name="href" select="s:loc"/></xsl:call-template></td>
                <xsl:if test="$lastmods"><td><xsl:value-of select="normalize-space(s:lastmod)"/></td></xsl:if>
              </tr>
            </xsl:for-each>
          </tbody>
        </table>
      </div>
    </main>
  </xsl:template>
</xsl:stylesheet>
