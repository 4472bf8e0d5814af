import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { type OpenAPISpec, openAPI } from '../api/openapi.ts';
import { useAction, useLoad } from '../api/use.ts';
import { emptySource, type SourceChoice, SourceFields, sourceOf } from './openapi/SourceFields.tsx';
import { POLL_MS, STATES } from './openapi/states.ts';
import { Confirm } from './settings/common.tsx';
import './openapi/admin.css';

/**
 * `/o/{org}/openapi/{slug}`, an OpenAPI specification's `urls.app` (`getOpenAPISpecBySlug`): where it comes from, its
 * processing and its errors, its versions (`listOpenAPISpecVersions`) and what the latest one describes. A member with
 * the `create` role (`permissions.edit`) fetches its URL again ("Check for updates"), gives it a new URL or file
 * (`createOrUpdateOpenAPISpecBySlug`, which processes it again) and deletes it after a confirmation
 * (`deleteOpenAPISpecBySlug`). The screen asks again while the specification waits to be processed.
 */
export default function OpenAPISpecScreen({ org, slug }: { org: string; slug: string }) {
  const s = useLoad(() => openAPI.get(org, slug), `openapi:${org}:${slug}`);
  const spec = s.data;
  const reload = s.reload;
  const busy = !!spec && spec.processingState !== 'complete';
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new answer (`spec`, `list`) schedules the next ask.
  useEffect(() => {
    if (!busy) return;
    const t = setTimeout(reload, POLL_MS);
    return () => clearTimeout(t);
  }, [busy, reload, spec]);
  const failed = spec?.lastProcessErrorCode;
  return (
    <section className="settings">
      <nav aria-label="Organization" className="settings-nav">
        <Link href={`/o/${org}/openapi`}>← All OpenAPI specifications</Link>
      </nav>
      <h1>OpenAPI specification {slug}</h1>
      {s.error && <p role="alert">{s.error.message}</p>}
      {!spec && !s.error && <p aria-live="polite">Loading the specification…</p>}
      {spec && (
        <>
          <dl className="facts">
            <dt>Source</dt>
            <dd>{spec.sourceURL ?? 'Given as text'}</dd>
            <dt>State</dt>
            <dd aria-live="polite">
              {STATES[spec.processingState]}
              {failed ? `: the last processing failed (${failed})` : ''}
            </dd>
            <dt>Last processed</dt>
            <dd>{spec.lastProcessedAt ? new Date(spec.lastProcessedAt).toLocaleString() : 'Not yet'}</dd>
            <dt>Latest version</dt>
            <dd>{spec.lastVersion ?? 'None yet'}</dd>
            <dt>Updated</dt>
            <dd>{new Date(spec.updatedAt).toLocaleString()}</dd>
          </dl>
          {failed && (
            <>
              <h2>Errors of the last processing ({spec.lastProcessedErrorCount})</h2>
              <p className="muted">The latest good version, if any, is kept.</p>
              <ul>
                {(spec.lastProcessedErrors ?? []).map((e, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the errors have no id, and the list is read-only
                  <li key={i}>
                    {e.code ? <code>{e.code}</code> : null} {e.message}
                  </li>
                ))}
              </ul>
            </>
          )}
          {spec.permissions.edit ? (
            <Actions org={org} spec={spec} onChanged={reload} />
          ) : (
            <p className="muted">Changing a specification needs the “create” role in the organization.</p>
          )}
          <Versions org={org} spec={spec} />
        </>
      )}
    </section>
  );
}

/** Fetch again, a new source, delete: what a member with the `create` role may do. */
function Actions({ org, spec, onChanged }: { org: string; spec: OpenAPISpec; onChanged(): void }) {
  const id = useId();
  const [, go] = useLocation();
  const action = useAction();
  const [source, setSource] = useState<SourceChoice>(emptySource(spec.sourceURL ?? ''));
  // A file input keeps its file: a new one after each update.
  const [round, setRound] = useState(0);
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  const url = spec.sourceURL;
  const update = async (e: FormEvent) => {
    e.preventDefault();
    const s = sourceOf(source);
    if (typeof s === 'string') return setProblem(s);
    setProblem(undefined);
    setDone(undefined);
    if (await action.run(() => openAPI.update(org, spec.slug, s))) {
      setDone('New source saved: the specification is processed again.');
      setSource(emptySource('url' in s ? s.url : ''));
      setRound((n) => n + 1);
      onChanged();
    }
  };
  const refetch = async () => {
    if (!url) return;
    setDone(undefined);
    if (await action.run(() => openAPI.update(org, spec.slug, { url }))) {
      setDone(`Fetching ${url} again: a new version is stored if the document changed.`);
      onChanged();
    }
  };
  const remove = async () => {
    if ((await action.run(() => openAPI.remove(org, spec.slug).then(() => true))) === true) go(`/o/${org}/openapi`);
  };
  return (
    <>
      <h2>Update or delete</h2>
      <div className="actions-row">
        {url && (
          <button type="button" onClick={() => void refetch()} disabled={action.busy}>
            Check for updates
          </button>
        )}
        <Confirm label={`Delete ${spec.slug}`} onConfirm={() => void remove()} disabled={action.busy} />
      </div>
      <form className="stack" onSubmit={update} aria-labelledby={`${id}-h`}>
        <h3 id={`${id}-h`}>Change the source</h3>
        <SourceFields key={round} label="The new source" value={source} onChange={setSource} />
        <button type="submit" disabled={action.busy}>
          Save the new source
        </button>
      </form>
      <div role="status">{done && <p>{done}</p>}</div>
      <div role="alert">{(problem ?? action.error) && <p className="error">{problem ?? action.error}</p>}</div>
    </>
  );
}

/** A number of the document's operations, and its `info`: what a version describes. */
function describe(doc: unknown): { title?: string; version?: string; operations: number } {
  const d = (doc ?? {}) as { info?: { title?: unknown; version?: unknown }; paths?: Record<string, unknown> };
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  let operations = 0;
  for (const item of Object.values(d.paths ?? {}))
    if (item && typeof item === 'object') operations += methods.filter((m) => m in item).length;
  return {
    ...(typeof d.info?.title === 'string' ? { title: d.info.title } : {}),
    ...(typeof d.info?.version === 'string' ? { version: d.info.version } : {}),
    operations,
  };
}

/** The versions the instance stored, newest first; what the latest one describes (its entry document's `info`). */
function Versions({ org, spec }: { org: string; spec: OpenAPISpec }) {
  const id = useId();
  const latest = spec.lastVersion;
  const versions = useLoad(
    async () => {
      const list = await openAPI.versions(org, spec.slug);
      const first = list[0];
      const content = first ? await openAPI.content(org, spec.slug, first.id) : undefined;
      return { list, about: content ? describe(content.filesystem.files[content.filesystem.entrypoint]) : undefined };
    },
    `openapi-versions:${org}:${spec.slug}:${latest ?? ''}:${spec.updatedAt}`,
  );
  const v = versions.data;
  return (
    <>
      <h2 id={`${id}-h`}>Versions</h2>
      {versions.error && <p role="alert">{versions.error.message}</p>}
      {v?.about && (
        <p>
          The latest version describes{' '}
          <strong>
            {v.about.title ?? 'an API without a title'}
            {v.about.version ? ` ${v.about.version}` : ''}
          </strong>
          : {v.about.operations === 1 ? '1 operation' : `${v.about.operations} operations`}.
        </p>
      )}
      {v &&
        (v.list.length === 0 ? (
          <p>No version yet: one is stored once a processing succeeds.</p>
        ) : (
          <ol className="settings-list" aria-labelledby={`${id}-h`}>
            {v.list.map((x) => (
              <li key={x.id}>
                <span className="who">
                  {new Date(x.createdAt).toLocaleString()}
                  {x.id === latest ? ' (latest)' : ''}
                </span>
                <code>{x.id}</code>
              </li>
            ))}
          </ol>
        ))}
    </>
  );
}
