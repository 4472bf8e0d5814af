import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import postcss from 'postcss';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes `<asset>.br` and `<asset>.gz` beside every built asset: compressed once here, at the strongest settings,
 * instead of at every start of the gateway (brotli at quality 11 took 4.3 s of CPU for the app's 2 MB of assets).
 */
function precompress(): Plugin {
  return {
    name: 'quire-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const [name, item] of Object.entries(bundle)) {
        if (!name.startsWith('assets/')) continue;
        const raw = Buffer.from(item.type === 'chunk' ? item.code : item.source);
        writeFileSync(join(dir, `${name}.br`), brotliCompressSync(raw));
        writeFileSync(join(dir, `${name}.gz`), gzipSync(raw, { level: 9 }));
      }
    },
  };
}

/**
 * The published site's stylesheet (gateway/src/site-assets/site.css) for the Page screen, which renders a page with
 * the site's renderer: imported as `site.css?article`, each of its rules is scoped to `.site-article` (its `:root`,
 * `html` and `body` rules become the wrapper's), so the site's look applies to the article and nothing else of the app.
 */
function siteArticleCss(): Plugin {
  const scoped = (selector: string) =>
    /^(:root|html|body)$/.test(selector.trim()) ? '.site-article' : `.site-article ${selector.trim()}`;
  return {
    name: 'quire-site-article-css',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/site-assets\/site\.css\?article$/.test(id)) return;
      const root = postcss.parse(code);
      root.walkRules((rule) => {
        const parent = rule.parent;
        if (parent?.type === 'atrule' && /keyframes$/i.test((parent as postcss.AtRule).name)) return;
        rule.selectors = rule.selectors.map(scoped);
      });
      return { code: root.toString(), map: null };
    },
  };
}

// Served by the gateway under /_quire/app/ (gateway/src/web-app.ts); every screen is its own chunk.
export default defineConfig({
  base: '/_quire/app/',
  plugins: [react(), siteArticleCss(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline polyfill script: the CSP allows scripts from this origin only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
