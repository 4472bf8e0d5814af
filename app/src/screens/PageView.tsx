import type { ReactNode } from 'react';
import { api, type Where } from '../api/endpoints.ts';
import { useLoad } from '../api/use.ts';
import { downloadSrc } from '../editor/uploads.ts';

/** The files of the spaces and change requests viewed (download link and name by id): an image or file block shows them. */
const knownFiles = new Map<string, { src: string; name: string }>();

/**
 * A page, read-only: the JSON document of the API (`GET …/content/path/{path}?format=document`) drawn in React.
 * The app has no endpoint returning the published site's rendering of a page in a space or a change request, so
 * this view draws GitBook's document itself: headings, paragraphs, lists, quotes, code, hints, dividers, images,
 * links and marks as such; any other block (tables, tabs, embeds…) shows its text in a labelled box.
 */
export default function PageView({ where, path }: { where: Where; path: string }) {
  const page = useLoad(
    async () => {
      // the files first: an image of the change request shows its picture, a file block its name
      const [read, files] = await Promise.all([api.pageByPath(where, path), api.files(where).catch(() => [])]);
      for (const f of files) knownFiles.set(f.id, { src: downloadSrc(f.downloadURL), name: f.name });
      return read;
    },
    `${where.space}:${where.changeRequest ?? ''}:${path}`,
  );
  if (page.error) return <p role="alert">{page.error.message}</p>;
  const p = page.data;
  if (!p) return <p aria-live="polite">Loading…</p>;
  const document = 'document' in p ? (p.document as Doc | undefined) : undefined;
  return (
    <>
      <h1>
        {'emoji' in p && p.emoji ? `${p.emoji} ` : ''}
        {p.title}
      </h1>
      {'description' in p && p.description && <p className="lead">{p.description}</p>}
      <div className="document">{document ? nodes(document.nodes ?? []) : null}</div>
    </>
  );
}

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
interface Doc {
  nodes?: Node[];
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
