import type { JSONDocument } from '@quire/document/render';
import { type MouseEvent, type ReactNode, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { api, type Where } from '../api/endpoints.ts';
import { useLoad } from '../api/use.ts';
import { downloadSrc } from '../editor/uploads.ts';
import { PageIcon } from './tree/PageIcon.tsx';
import { iconLoads } from './tree/page-icon.ts';
import './page/chrome.css';

/** The files of the spaces and change requests viewed (download link and name by id): the diff's image and file blocks show them. */
const knownFiles = new Map<string, { src: string; name: string }>();

/** The app's URL of the space or change request shown (`/o/{org}/s/{space}[/~/changes/{n}]`), from the location. */
const baseOf = (location: string) => /^\/o\/[^/]+\/s\/[^/]+(?:\/~\/changes\/[^/]+)?/.exec(location)?.[0] ?? '';

/**
 * A page, read-only, rendered exactly as the published site renders it: the page's JSON document of the API
 * (`GET …/content/path/{path}?format=document`), the revision's pages (links) and files (images, file blocks) go
 * through the published site's renderer (`@quire/document/render`, the code the sites service runs), loaded on
 * demand in its own chunk (app/src/render/page.ts) with the site's stylesheet scoped to the article. Around it, what
 * the site draws around a page, by the site's code (app/src/render/chrome.ts): the cover, breadcrumbs, "On this page",
 * "Last updated", the previous and next pages.
 */
export default function PageView({ where, path }: { where: Where; path: string }) {
  const [location, navigate] = useLocation();
  const base = baseOf(location);
  const page = useLoad(
    async () => {
      const [read, pages, files, renderer] = await Promise.all([
        api.pageByPath(where, path),
        api.pages(where),
        api.files(where).catch(() => []),
        // zod set up first (its own chunk, run before the renderer's chunks: see render/jitless.ts)
        import('../render/jitless.ts').then(() => import('../render/page.ts')),
      ]);
      for (const f of files) knownFiles.set(f.id, { src: downloadSrc(f.downloadURL), name: f.name });
      const document = 'document' in read ? (read.document as JSONDocument | undefined) : undefined;
      const { html, headings } = await renderer.renderPage({ document, path, pages: pages.pages, files, base });
      const chrome = renderer.pageChrome({ path, pages: pages.pages, files, base, headings });
      return { read, html, chrome, toNodes: renderer.toNodes };
    },
    `${where.space}:${where.changeRequest ?? ''}:${path}`,
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
  /** A link to a page of the app opens it in the app (no reload); any other link is the browser's. */
  const follow = (e: MouseEvent<HTMLDivElement>) => {
    const a = (e.target as Element).closest('a[href]');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL((a as HTMLAnchorElement).href);
    if (url.origin !== window.location.origin || !url.pathname.startsWith('/o/') || url.pathname === location) return;
    e.preventDefault();
    navigate(`${url.pathname}${url.search}${url.hash}`);
  };
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

/*
 * What follows draws blocks of a document in React: the change request's diff (screens/changes/Diff.tsx) shows each
 * changed block with it; the page itself is rendered by the published site's renderer above.
 */
interface Leaf {
  text?: string;
  marks?: { type: string }[];
}
export interface Node {
  object?: string;
  type?: string;
  key?: string;
  data?: Record<string, any>;
  nodes?: Node[];
  fragments?: (Node & { fragment?: string })[];
  leaves?: Leaf[];
  text?: string;
}

/** The plain text of a node and its children. */
export function textOf(n: Node): string {
  if (n.object === 'text') return (n.leaves ?? []).map((l) => l.text ?? '').join('') || (n.text ?? '');
  const own = (n.nodes ?? []).map(textOf).join('');
  // an expandable's title and body, a table's cells: fragments, one after the other
  return [own, ...(n.fragments ?? []).map(textOf)].filter(Boolean).join(' ');
}

function leaf(l: Leaf, key: number): ReactNode {
  let out: ReactNode = l.text ?? '';
  for (const m of l.marks ?? []) {
    if (m.type === 'bold') out = <strong>{out}</strong>;
    else if (m.type === 'italic') out = <em>{out}</em>;
    else if (m.type === 'code') out = <code>{out}</code>;
    else if (m.type === 'strikethrough') out = <s>{out}</s>;
  }
  return <span key={key}>{out}</span>;
}

export const nodes = (list: Node[]): ReactNode[] => list.map((n, i) => node(n, n.key ?? String(i)));

/** A URL the page may link to: http(s), mail, or a path of this site; anything else is not a link. */
const safeUrl = (url: unknown) =>
  typeof url === 'string' && /^(https?:|mailto:|\/(?!\/))/i.test(url) ? url : undefined;

function node(n: Node, key: string): ReactNode {
  if (n.object === 'text') return <span key={key}>{(n.leaves ?? [{ text: n.text }]).map(leaf)}</span>;
  const children = nodes(n.nodes ?? []);
  switch (n.type) {
    case 'heading-1':
      return <h2 key={key}>{children}</h2>;
    case 'heading-2':
      return <h3 key={key}>{children}</h3>;
    case 'heading-3':
      return <h4 key={key}>{children}</h4>;
    case 'paragraph':
      return <p key={key}>{children}</p>;
    case 'list-unordered':
      return <ul key={key}>{children}</ul>;
    case 'list-ordered':
      return <ol key={key}>{children}</ol>;
    case 'list-tasks':
      return (
        <ul key={key} className="tasks">
          {children}
        </ul>
      );
    case 'list-item':
      return (
        <li key={key}>
          {n.data?.checked !== undefined && (
            <input type="checkbox" checked={Boolean(n.data.checked)} readOnly aria-label="Task done" />
          )}
          {children}
        </li>
      );
    case 'blockquote':
      return <blockquote key={key}>{children}</blockquote>;
    case 'divider':
      return <hr key={key} />;
    case 'code':
      return (
        <pre key={key} data-language={n.data?.syntax}>
          <code>{(n.nodes ?? []).map(textOf).join('\n')}</code>
        </pre>
      );
    case 'hint':
      return (
        <aside
          key={key}
          className={`hint hint-${n.data?.style ?? 'info'}`}
          aria-label={`Hint (${n.data?.style ?? 'info'})`}
        >
          {children}
        </aside>
      );
    case 'link': {
      const href = safeUrl(n.data?.ref?.url);
      return href ? (
        <a key={key} href={href} rel="noopener noreferrer">
          {children}
        </a>
      ) : (
        <span key={key}>{children}</span>
      );
    }
    case 'images':
      return (
        <figure key={key} className="images">
          {children}
        </figure>
      );
    case 'image': {
      const ref = n.data?.ref;
      const src = ref?.kind === 'file' ? knownFiles.get(ref.file)?.src : safeUrl(ref?.url);
      const caption = textOf({ nodes: n.fragments?.find((f) => f.fragment === 'caption')?.nodes ?? [] });
      return (
        <span key={key} className="image">
          {src ? <img src={src} alt={n.data?.alt ?? ''} /> : <span className="block-kind">image</span>}
          {caption && <span className="caption">{caption}</span>}
        </span>
      );
    }
    case 'file': {
      const file = n.data?.ref?.kind === 'file' ? knownFiles.get(n.data.ref.file) : undefined;
      return (
        <p key={key} className="file">
          {file ? <a href={file.src}>{file.name}</a> : <span className="block-kind">file</span>}
        </p>
      );
    }
    default:
      if (n.object === 'inline') return <span key={key}>{children}</span>;
      return (
        <div key={key} className="block-other" data-type={n.type}>
          <span className="block-kind">{n.type}</span>
          <p>{textOf(n)}</p>
        </div>
      );
  }
}
