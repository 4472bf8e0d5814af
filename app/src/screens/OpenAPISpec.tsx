import type { ops } from '@quire/contracts';
import { Link } from 'wouter';
import { browserTransport, type Out, request, seg } from '../api/client.ts';
import { useLoad } from '../api/use.ts';

type Spec = Out<typeof ops.getOpenAPISpecBySlug>;
const specOf = (org: string, slug: string) =>
  request<Spec>(browserTransport, 'GET', `/orgs/${seg(org)}/openapi/${seg(slug)}`);

const STATES: Record<Spec['processingState'], string> = {
  pending: 'Waiting to be processed',
  progress: 'Being processed',
  complete: 'Processed',
};

/**
 * `/o/{org}/openapi/{slug}`, an OpenAPI specification's `urls.app` (`getOpenAPISpecBySlug`): where it comes from, its
 * processing and its errors, read-only (it is created and updated through the API or `quire`).
 */
export default function OpenAPISpecScreen({ org, slug }: { org: string; slug: string }) {
  const s = useLoad(() => specOf(org, slug), `openapi:${org}:${slug}`);
  const spec = s.data;
  const failed = spec?.lastProcessErrorCode;
  return (
    <section className="settings">
      <nav aria-label="Organization" className="settings-nav">
        <Link href={`/o/${org}`}>← Back to the organization</Link>
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
            <dd>
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
          <p className="muted">
            Pages show its operations in OpenAPI blocks. It is created and updated through the API (
            <code>createOrUpdateOpenAPISpecBySlug</code>:{' '}
            <code>
              PUT /v1/orgs/{'{organizationId}'}/openapi/{slug}
            </code>
            ).
          </p>
        </>
      )}
    </section>
  );
}
