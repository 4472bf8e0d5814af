import { pngImage, type WebResource } from '@quire/kit/testing';
import { websiteFetch, type CrawlLimits } from './website-crawler.ts';

/**
 * "Acme Docs", a small documentation site under `/docs/` for the import tests: navigation on every page, pages
 * nested by path (`/docs/api/auth.html` under `/docs/api/`; `/docs/guides/setup.html` without a
 * `/docs/guides/`), links between them (one to a heading), images, a page reached by two URLs (a canonical one and
 * a redirect), a PDF, a missing page, a missing image and links out of the site.
 *
 * Imported from `/docs/` with the default depth: 6 pages (Acme Docs, Setup, API, FAQ, Authentication, Tokens) and
 * 2 images of 11 resources (8 pages of the site found, the PDF and the missing page among them; 3 images, one missing).
 */
export const LOGO = pngImage(64, 32);
export const DIAGRAM = pngImage(120, 80, [200, 60, 40]);

const page = (title: string, main: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>${title} – Acme Docs</title><style>body { font-family: sans-serif }</style></head>
<body>
  <header><a href="/docs/"><img src="/docs/img/logo.png" alt="Acme"></a> <a href="/blog/">Blog</a></header>
  <nav><ul><li><a href="/docs/">Home</a></li><li><a href="/docs/guides/setup.html">Setup</a></li><li><a href="/docs/api/">API</a></li></ul></nav>
  <main>${main}</main>
  <footer>© Acme <a href="https://example.com/legal">Legal</a></footer>
  <script>console.log('analytics')</script>
</body></html>`;

export const ACME_DOCS: Record<string, WebResource | string> = {
  '/docs/': page(
    'Home',
    `<h1>Acme Docs</h1>
     <p>Welcome to <strong>Acme</strong>. Start with <a href="guides/setup.html#install-linux">installing on Linux</a>, then read the <a href="api/">API reference</a>.</p>
     <p><img src="img/logo.png" alt="The Acme logo"></p>
     <ul><li><a href="faq.html?ref=nav">FAQ</a></li><li><a href="old.html">Old FAQ</a></li><li><a href="manual.pdf">Manual (PDF)</a></li><li><a href="missing.html">Missing</a></li><li><a href="https://example.com/">Example</a></li></ul>`,
  ),
  '/docs/guides/setup.html': page(
    'Setup',
    `<article><h1>Setup</h1>
     <p>Acme runs everywhere.</p>
     <h2 id="install-linux">Installing on Linux <a class="anchor" href="#install-linux">#</a></h2>
     <pre><code class="language-sh">curl -fsSL https://acme.io/install.sh | sh\n</code></pre>
     <figure><img src="../img/diagram.png" alt="Architecture"><figcaption>How Acme fits together</figcaption></figure>
     <table><tr><td>OS</td><td>Supported</td></tr><tr><td>Linux</td><td>yes</td></tr></table>
     <p>Back to <a href="../">the start</a>; see <a href="#install-linux">the install steps</a>. <img src="../img/missing.png" alt="Missing"></p></article>`,
  ),
  '/docs/api/': page('API', `<h1>API</h1><p>Every call needs a token: see <a href="auth.html">Authentication</a>.</p>`),
  '/docs/api/auth.html': page(
    'Authentication',
    `<h1>Authentication</h1><p>Send <code>Authorization: Bearer &lt;token&gt;</code>. Tokens are described in <a href="tokens.html">Tokens</a>.</p>`,
  ),
  '/docs/api/tokens.html': page('Tokens', `<h1>Tokens</h1><p>A token is a secret.</p>`),
  '/docs/faq.html?ref=nav': page('FAQ', `<h1>FAQ</h1><p>Answers.</p>`).replace(
    '<head>',
    '<head><link rel="canonical" href="/docs/faq.html">',
  ),
  '/docs/faq.html': page('FAQ', `<h1>FAQ</h1><p>Answers.</p>`).replace(
    '<head>',
    '<head><link rel="canonical" href="/docs/faq.html">',
  ),
  '/docs/old.html': { location: '/docs/faq.html' },
  '/docs/manual.pdf': { body: Buffer.from('%PDF-1.4\n%…'), type: 'application/pdf' },
  '/docs/img/logo.png': { body: LOGO, type: 'image/png' },
  '/docs/img/diagram.png': { body: DIAGRAM, type: 'application/octet-stream' },
  '/blog/': page('Blog', '<h1>Blog</h1>'),
};

/** The crawl limits of the tests (the defaults of the configuration), with `over` changed. */
export const crawlLimits = (over: Partial<CrawlLimits> = {}): CrawlLimits => ({
  maxDepth: 3,
  maxPages: 100,
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 10_000,
  concurrency: 4,
  maxImageBytes: 1024 * 1024,
  ...over,
});

/** Fetches that may reach the test sites on loopback (and nothing outside). */
export const localFetch = websiteFetch({ QUIRE_ALLOW_PRIVATE_FETCH: true, QUIRE_OUTBOUND_FETCH: false });
