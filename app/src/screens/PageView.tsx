import type { JSONDocument } from '@quire/document/render';
import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { api, type Where } from '../api/endpoints.ts';
import { useAppLinks } from '../render/follow.ts';
import { useLoad } from '../api/use.ts';
import { PageIcon } from './tree/PageIcon.tsx';
import { iconLoads } from './tree/page-icon.ts';
import './page/chrome.css';

/**
 * The app's URL of the space, change request or revision shown (`/o/{org}/s/{space}[/~/changes/{n}]`,
 * `/o/{org}/s/{space}/~/revisions/{id}`), from the location: the page's links to pages go under it.
 */
const baseOf = (location: string) =>
  /^\/o\/[^/]+\/s\/[^/]+(?:\/~\/(?:changes|revisions)\/[^/]+)?/.exec(location)?.[0] ?? '';

/**
 * A page, read-only, rendered exactly as the published site renders it: the page's JSON document of the API
 * (`GET …/content/path/{path}?format=document`, or `…/revisions/{r}/page/{id}` for a page of a past revision), the
 * revision's pages (links) and files (images, file blocks) go through the published site's renderer
 * (`@quire/document/render`, the code the sites service runs), loaded on demand in its own chunk
 * (app/src/render/page.ts) with the site's stylesheet scoped to the article. Around it, what the site draws around a
 * page, by the site's code (app/src/render/chrome.ts): the cover, breadcrumbs, "On this page", "Last updated", the
 * previous and next pages (their links go to the pages of the space, change request or revision shown).
 */
export default function PageView(props: {
  where: Where;
  /** The page's path in the revision read (where its relative links start). */
  path: string;
  /** Read the page by its id (`…/page/{id}`, the revision screen) rather than by its path. */
  id?: string | undefined;
}) {
  const { where, path, id } = props;
  const [location] = useLocation();
  const base = baseOf(location);
  const page = useLoad(
    async () => {
      const [read, pages, files, renderer] = await Promise.all([
        id ? api.pageById(where, id) : api.pageByPath(where, path),
        api.pages(where),
        api.files(where).catch(() => []),
        // zod set up first (its own chunk, run before the renderer's chunks: see render/jitless.ts)
        import('../render/jitless.ts').then(() => import('../render/page.ts')),
      ]);
      const document = 'document' in read ? (read.document as JSONDocument | undefined) : undefined;
      const { html, headings } = await renderer.renderPage({ document, path, pages: pages.pages, files, base });
      const chrome = renderer.pageChrome({ path, pages: pages.pages, files, base, headings });
      return { read, html, chrome, toNodes: renderer.toNodes };
    },
    `${where.space}:${where.changeRequest ?? ''}:${where.revision ?? ''}:${id ?? ''}:${path}`,
  );
  const body = useRef<HTMLDivElement>(null);
  const data = page.data;
  useLayoutEffect(() => {
    if (!data || !body.current) return;
    body.current.replaceChildren(data.toNodes(data.html));
    // an icon inline whose name Font Awesome does not have draws nothing, as on the site
    for (const el of body.current.querySelectorAll<HTMLElement>('.inline-icon')) {
      const src = /^url\((.+)\)$/.exec(el.style.getPropertyValue('--icon').trim())?.[1];
      void (src ? iconLoads(src) : Promise.resolve(false)).then((ok) => ok || el.remove());
    }
    // a link to a heading of this page (`…/page#heading`): in sight once the page is drawn
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, [data]);
  const follow = useAppLinks();
  if (page.error) return <p role="alert">{page.error.message}</p>;
  if (!data) return <p aria-live="polite">Loading…</p>;
  const p = data.read;
  const emoji = 'emoji' in p && p.emoji ? p.emoji : '';
  const description = 'description' in p ? p.description : undefined;
  const { chrome, toNodes } = data;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the click only lets the article's own links open in the app
    // biome-ignore lint/a11y/useKeyWithClickEvents: links are followed by Enter, which clicks them
    <div className="site-article" onClick={follow}>
      <div className={chrome.outline ? 'page-chrome with-outline' : 'page-chrome'}>
        <div className="page-main">
          <SiteHtml html={chrome.breadcrumbs} toNodes={toNodes} />
          <SiteHtml html={chrome.cover} toNodes={toNodes} />
          <header className="page-header">
            <h1>
              {emoji && (
                <span className="emoji" aria-hidden="true">
                  {`${emoji} `}
                </span>
              )}
              <PageIcon icon={'icon' in p ? p.icon : undefined} />
              {p.title}
            </h1>
            {description && <p className="description">{description}</p>}
          </header>
          <div className="document" ref={body} />
          <SiteHtml html={chrome.updated} toNodes={toNodes} />
          <SiteHtml html={chrome.prevNext} toNodes={toNodes} />
        </div>
        {/* the site's outline column (a `div`, not the site's `aside`: here it is inside the app's main landmark) */}
        {chrome.outline && <SiteHtml html={chrome.outline} toNodes={toNodes} className="outline" />}
      </div>
    </div>
  );
}

/** A piece of the site's chrome (its HTML, escaped by the renderer), drawn as the site draws it; nothing when empty. */
function SiteHtml({
  html,
  toNodes,
  className,
}: {
  html: string;
  toNodes(html: string): DocumentFragment;
  className?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    box.current?.replaceChildren(toNodes(html));
  }, [html, toNodes]);
  return html ? <div className={className} ref={box} /> : null;
}
