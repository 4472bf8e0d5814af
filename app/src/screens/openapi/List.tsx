import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../../api/endpoints.ts';
import { openAPI } from '../../api/openapi.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { emptySource, type SourceChoice, SourceFields, sourceOf } from './SourceFields.tsx';
import { POLL_MS, slugOf, stateOf, waiting } from './states.ts';
import './admin.css';

/**
 * `/o/{org}/openapi`: the organization's OpenAPI specifications (`listOpenAPISpecs`), each with its source and
 * processing state, and, for a member who may (`permissions.createOpenAPISpec`: the `create` role), a form adding
 * one from a URL or a file (`createOpenAPISpec`). The list asks again while one waits to be processed.
 */
export default function OpenAPISpecs({ org }: { org: string }) {
  const specs = useLoad(() => Promise.all([api.organization(org), openAPI.list(org)]), `openapi-list:${org}`, {
    live: true,
  });
  const [organization, list] = specs.data ?? [];
  const busy = !!list && waiting(list);
  const reload = specs.reload;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new answer (`spec`, `list`) schedules the next ask.
  useEffect(() => {
    if (!busy) return;
    const t = setTimeout(reload, POLL_MS);
    return () => clearTimeout(t);
  }, [busy, reload, list]);
  return (
    <section className="settings">
      <nav aria-label="Organization" className="settings-nav">
        <Link href={`/o/${org}`}>← Back to the organization</Link>
      </nav>
      <h1>OpenAPI specifications</h1>
      <p className="muted">
        Pages show the operations of a specification in OpenAPI blocks. The instance fetches and checks each document in
        the background and keeps every version it read.
      </p>
      {specs.error && <p role="alert">{specs.error.message}</p>}
      {!specs.data && !specs.error && <p aria-live="polite">Loading the specifications…</p>}
      {list && (
        <>
          {list.length === 0 ? (
            <p>No specification yet.</p>
          ) : (
            <ul className="settings-list" aria-label="Specifications">
              {list.map((s) => (
                <li key={s.id}>
                  <span className="who">
                    <Link href={`/o/${org}/openapi/${s.slug}`}>{s.slug}</Link>
                    <br />
                    <span className="muted">{s.sourceURL ?? 'Given as text'}</span>
                  </span>
                  <span className={s.lastProcessErrorCode ? 'error' : undefined}>{stateOf(s)}</span>
                </li>
              ))}
            </ul>
          )}
          {organization?.permissions.createOpenAPISpec ? (
            <CreateSpec org={org} taken={list.map((s) => s.slug)} />
          ) : (
            <p className="muted">Adding a specification needs the “create” role in the organization.</p>
          )}
        </>
      )}
    </section>
  );
}

function CreateSpec({ org, taken }: { org: string; taken: string[] }) {
  const id = useId();
  const [, go] = useLocation();
  const [slug, setSlug] = useState('');
  const [source, setSource] = useState<SourceChoice>(emptySource());
  const [problem, setProblem] = useState<string>();
  const action = useAction();
  // A slug not typed yet follows the file's name.
  const shownSlug = slug || (source.kind === 'file' && source.file ? slugOf(source.file.name) : '');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const s = sourceOf(source);
    if (typeof s === 'string') return setProblem(s);
    if (taken.includes(shownSlug)) return setProblem(`A specification is already called ${shownSlug}.`);
    setProblem(undefined);
    const made = await action.run(() => openAPI.create(org, shownSlug, s));
    if (made) go(`/o/${org}/openapi/${made.slug}`);
  };
  return (
    <form className="stack" onSubmit={submit} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Add a specification</h2>
      <div className="field">
        <label htmlFor={`${id}-slug`}>Slug (lowercase letters, digits and dashes)</label>
        <input
          id={`${id}-slug`}
          required
          maxLength={100}
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          value={shownSlug}
          onChange={(e) => setSlug(e.target.value)}
          aria-describedby={`${id}-slug-help`}
        />
        <span id={`${id}-slug-help`} className="muted">
          How pages and the API name it, for example <code>petstore</code>.
        </span>
      </div>
      <SourceFields label="Where the document comes from" value={source} onChange={setSource} />
      <button type="submit" disabled={action.busy}>
        Add specification
      </button>
      <div role="alert">{(problem ?? action.error) && <p className="error">{problem ?? action.error}</p>}</div>
    </form>
  );
}
