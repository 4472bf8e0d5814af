import type { ops } from '@quire/contracts';
import { Link } from 'wouter';
import { browserTransport, type Out, request, seg } from '../api/client.ts';
import { api } from '../api/endpoints.ts';
import { settingsApi } from '../api/settings.ts';
import { useLoad } from '../api/use.ts';
import { ChangeList } from './History.tsx';
import { authorOf, kindOf } from './history-kind.ts';

type Revision = Out<typeof ops.getRevisionById>;
const revisionOf = (space: string, id: string) =>
  request<Revision>(browserTransport, 'GET', `/spaces/${seg(space)}/revisions/${seg(id)}`);

/**
 * `/o/{org}/s/{space}/~/revisions/{id}`, a revision's `urls.app`: what made it, when and who (`getRevisionById`), and
 * what it changed against the revision before it (`getRevisionSemanticChanges`), as the history shows it.
 */
export default function RevisionScreen({ org, space, revision }: { org: string; space: string; revision: string }) {
  const s = useLoad(() => api.space(space), `revision-space:${space}`);
  const r = useLoad(() => revisionOf(space, revision), `revision:${space}:${revision}`);
  const error = r.error ?? s.error;
  const title = r.data ? kindOf(r.data) : undefined;
  const author = r.data ? authorOf(r.data) : undefined;
  // What it changed, shown below; getRevisionById leaves out the change request a merge merged, and this names it.
  const merged = useLoad(() => settingsApi.revisionChanges(space, revision), `changes:${revision}`);
  const cr = r.data?.mergedFrom ?? merged.data?.mergedFrom;
  return (
    <section className="settings">
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
        </>
      )}
      {!r.data && !error && <p aria-live="polite">Loading the revision…</p>}
    </section>
  );
}
