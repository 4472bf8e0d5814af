import type { ops } from '@quire/contracts';
import { Link } from 'wouter';
import { browserTransport, type Out, request, seg } from '../api/client.ts';
import { api, type RevisionPage } from '../api/endpoints.ts';
import { settingsApi } from '../api/settings.ts';
import { useLoad } from '../api/use.ts';
import { PageView } from '../screens.ts';
import { ChangeList } from './History.tsx';
import { authorOf, kindOf } from './history-kind.ts';
import { findDocument, findPage } from './revision-pages.ts';
import { childrenOf } from './tree/placed.ts';
import './page/chrome.css';
import './revision.css';

type Revision = Out<typeof ops.getRevisionById>;
const revisionOf = (space: string, id: string) =>
  request<Revision>(browserTransport, 'GET', `/spaces/${seg(space)}/revisions/${seg(id)}`);

/**
 * `/o/{org}/s/{space}/~/revisions/{id}`, a revision's `urls.app`: what made it, when and who (`getRevisionById`),
 * what it changed against the revision before it (`getRevisionSemanticChanges`), as the history shows it, and its
 * pages as they were then (`listPagesInRevisionById`). `…/revisions/{id}/{path}` opens one of them, read from the
 * revision (`getPageInRevisionById`) and drawn by the Page screen (its links to pages stay in the revision), under a
 * line saying which revision it is from, with a link to the page as it is now.
 */
export default function RevisionScreen(props: { org: string; space: string; revision: string; path: string }) {
  const { org, space, revision, path } = props;
  const s = useLoad(() => api.space(space), `revision-space:${space}`);
  const r = useLoad(() => revisionOf(space, revision), `revision:${space}:${revision}`);
  const error = r.error ?? s.error;
  const title = r.data ? kindOf(r.data) : undefined;
  const author = r.data ? authorOf(r.data) : undefined;
  // What it changed, shown below; getRevisionById leaves out the change request a merge merged, and this names it.
  const merged = useLoad(() => settingsApi.revisionChanges(space, revision), `changes:${revision}`);
  const cr = r.data?.mergedFrom ?? merged.data?.mergedFrom;
  const here = `/o/${org}/s/${space}/~/revisions/${revision}`;
  return (
    <section className="settings revision">
      <nav aria-label="Space" className="settings-nav">
        <Link href={`/o/${org}/s/${space}/~/history`}>
          ← History of {s.data ? s.data.title || 'Untitled space' : 'the space'}
        </Link>
      </nav>
      <h1>{title ?? 'Revision'}</h1>
      {error && <p role="alert">{error.message}</p>}
      {r.data && (
        <>
          <p className="muted">
            Revision {r.data.id}, <time dateTime={r.data.createdAt}>{new Date(r.data.createdAt).toLocaleString()}</time>
            {author ? `, by ${author}` : ''}
          </p>
          <p>
            {cr && (
              <>
                <Link href={`/o/${org}/s/${space}/~/changes/${cr.number}`}>Open change request #{cr.number}</Link>
                {' · '}
              </>
            )}
            <Link href={`/o/${org}/s/${space}`}>Open the space as it is now</Link>
          </p>
          <h2>What it changed</h2>
          <ChangeList loaded={merged} title={title ?? 'this revision'} />
          <Pages org={org} space={space} revision={r.data} here={here} path={path} />
        </>
      )}
      {!r.data && !error && <p aria-live="polite">Loading the revision…</p>}
    </section>
  );
}

/** The revision's page tree, and the page of it asked for (its path), as it was then. */
function Pages(props: { org: string; space: string; revision: Revision; here: string; path: string }) {
  const { org, space, revision: r, here, path } = props;
  const where = { space, revision: r.id };
  const pages = useLoad(() => api.pages(where), `revision-pages:${space}:${r.id}`);
  const shown = path && pages.data ? findDocument(pages.data.pages, path) : undefined;
  const when = new Date(r.createdAt).toLocaleString();
  return (
    <>
      <h2 id="revision-pages-h">Pages in this revision</h2>
      {pages.error && <p role="alert">{pages.error.message}</p>}
      {!pages.data && !pages.error && <p aria-live="polite">Loading the pages…</p>}
      {pages.data && (
        <nav aria-labelledby="revision-pages-h">
          {pages.data.pages.length === 0 ? (
            <p className="muted">No page.</p>
          ) : (
            <Tree pages={pages.data.pages} here={here} current={shown?.id} />
          )}
        </nav>
      )}
      {path && pages.data && !shown && <p role="alert">This revision has no page at “{path}”.</p>}
      {shown && (
        <section aria-label={`${shown.title}, as it was in revision ${r.id}`} className="revision-page">
          <p className="revision-note" role="note">
            <strong>
              As it was in revision {r.id} (<time dateTime={r.createdAt}>{when}</time>).
            </strong>{' '}
            <CurrentLink org={org} space={space} page={shown} />
          </p>
          <PageView where={where} path={shown.path} id={shown.id} />
        </section>
      )}
    </>
  );
}

/** A level of the tree: documents open in the revision screen, groups are their titles, links their targets. */
function Tree({ pages, here, current }: { pages: RevisionPage[]; here: string; current: string | undefined }) {
  return (
    <ul className="revision-tree">
      {pages.map((p) => (
        <li key={p.id}>
          {p.type === 'document' ? (
            <Link href={`${here}/${p.path}`} aria-current={p.id === current ? 'page' : undefined}>
              {p.emoji && <span aria-hidden="true">{`${p.emoji} `}</span>}
              {p.title}
            </Link>
          ) : (
            <span>
              {p.title}
              {p.type === 'link' && <span className="muted"> (link)</span>}
            </span>
          )}
          {childrenOf(p).length > 0 && <Tree pages={childrenOf(p)} here={here} current={current} />}
        </li>
      ))}
    </ul>
  );
}

/** The page as it is now, found by its id among the space's current pages; or that it is no longer there. */
function CurrentLink({ org, space, page }: { org: string; space: string; page: RevisionPage }) {
  const now = useLoad(() => api.pages({ space }), `current-pages:${space}`);
  if (now.error) return <span role="alert">{now.error.message}</span>;
  if (!now.data) return <span className="muted">Finding the current page…</span>;
  const current = findPage(now.data.pages, page.id);
  if (current?.type !== 'document') return <span className="muted">The page is no longer in the space.</span>;
  return <Link href={`/o/${org}/s/${space}/${current.path}`}>Open the current page “{current.title}”</Link>;
}
