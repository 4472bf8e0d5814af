// The settings of an OpenAPI operation block (the organization's specification and the operation it shows) and of a
// reusable content block (one of the space's reusable contents), read through /v1: listOpenAPISpecs, the latest
// version's content (getLatestOpenAPISpecVersionContent) and the revision's `reusableContents`.
import type { ops } from '@quire/contracts';
import { browserTransport, type Out, request, requestAll, seg } from '../api/client.ts';
import { useLoad } from '../api/use.ts';
import { type Operation, operationKey, operationsOf } from './ref-blocks.ts';
import type { Target } from './settings.ts';
import { reusableTitles } from './uploads.ts';

type Spec = Out<typeof ops.listOpenAPISpecs>['items'][number];
type SpecContent = Out<typeof ops.getLatestOpenAPISpecVersionContent>;
type Revision = Out<typeof ops.getCurrentRevision>;
type SpaceOf = Out<typeof ops.getSpaceById>;

const t = browserTransport;

interface OpenAPIProps {
  space: string;
  target: Target;
  onPick(spec: string, op?: Operation): void;
}

/** The organization of the space and its OpenAPI specifications (`listOpenAPISpecs`). */
export function useSpecs(space: string) {
  return useLoad(async () => {
    const s = await request<SpaceOf>(t, 'GET', `/spaces/${seg(space)}`);
    return { org: s.organization, specs: await requestAll<Spec>(t, `/orgs/${seg(s.organization)}/openapi`) };
  }, `openapi-specs:${space}`);
}

/** The entry document of the latest version of the specification `spec` (parsed), once read. */
export function useSpecEntry(org: string | undefined, spec: string) {
  const content = useLoad(
    async () =>
      org && spec
        ? request<SpecContent>(t, 'GET', `/orgs/${seg(org)}/openapi/${seg(spec)}/versions/latest/content`)
        : undefined,
    `openapi-content:${org}:${spec}`,
  );
  const fs = content.data?.filesystem;
  return { entry: fs ? (fs.files[fs.entrypoint] as unknown) : undefined, read: !!fs, error: content.error };
}

/** The organization's specifications, by slug; one the organization does not have (any more) is shown and kept. */
export function SpecSelect({
  id,
  current,
  specs,
  onPick,
}: {
  id: string;
  current: string;
  specs: Spec[] | undefined;
  onPick(slug: string): void;
}) {
  return (
    <label htmlFor={id}>
      Specification{' '}
      <select id={id} value={current} onChange={(e) => e.target.value && onPick(e.target.value)}>
        {!current && <option value="">Choose…</option>}
        {current && !specs?.some((s) => s.slug === current) && (
          <option value={current}>
            {current}
            {specs ? ' (not in this organization)' : ''}
          </option>
        )}
        {specs?.map((s) => (
          <option key={s.slug} value={s.slug}>
            {s.slug}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The specification and operation of an `openapi-operation` block: two lists, each choice written at once. */
export function OpenAPISettings({ space, target, onPick }: OpenAPIProps) {
  const data = target.attrs.data ?? {};
  const current: string = data.ref?.kind === 'openapi' ? (data.ref.spec ?? '') : '';
  const specs = useSpecs(space);
  const org = specs.data?.org;
  const content = useSpecEntry(org, current);
  const fs = content.read;
  const operations = fs ? operationsOf(content.entry) : [];
  const chosen = operationKey(data);
  const known = operations.some((o) => operationKey(o) === chosen);
  const specId = `block-openapi-spec-${target.pos}`;
  const opId = `block-openapi-operation-${target.pos}`;
  return (
    <>
      <SpecSelect id={specId} current={current} specs={specs.data?.specs} onPick={(slug) => onPick(slug)} />
      <label htmlFor={opId}>
        Operation{' '}
        <select
          id={opId}
          value={chosen}
          disabled={!current}
          onChange={(e) => {
            const op = operations.find((o) => operationKey(o) === e.target.value);
            if (op) onPick(current, op);
          }}
        >
          {!chosen && <option value="">Choose…</option>}
          {chosen && !known && (
            <option value={chosen}>
              {String(data.method).toUpperCase()} {data.path}
              {fs ? ' (not in the specification)' : ''}
            </option>
          )}
          {operations.map((o) => (
            <option key={operationKey(o)} value={operationKey(o)}>
              {o.method.toUpperCase()} {o.path}
              {o.summary ? ` · ${o.summary}` : ''}
            </option>
          ))}
        </select>
      </label>
      {(specs.error || (content.error && current)) && (
        <span className="muted" role="status">
          {specs.error
            ? `The specifications could not be read: ${specs.error.message}`
            : `The operations of ${current} could not be read: ${content.error!.message}`}
        </span>
      )}
    </>
  );
}

const revisionPath = (space: string, changeRequest?: string) =>
  changeRequest
    ? `/spaces/${seg(space)}/change-requests/${seg(changeRequest)}/content`
    : `/spaces/${seg(space)}/content`;

/** The reusable contents of the space (of the change request, when one is edited) by title; their titles kept. */
export async function reusableContentsOf(space: string, changeRequest?: string) {
  const list = (await request<Revision>(t, 'GET', revisionPath(space, changeRequest))).reusableContents ?? [];
  for (const r of list) reusableTitles.set(r.id, r.title);
  // by title, as a writer looks for one
  return list.sort((a, b) => a.title.localeCompare(b.title));
}

interface ReusableProps {
  space: string;
  /** the change request edited, if any: its revision lists the reusable contents (new ones included) */
  changeRequest?: string | undefined;
  target: Target;
  onPick(id: string, title: string): void;
}

/** The reusable content a `reusable-content` block includes, picked from the space's. */
export function ReusableContentSettings({ space, changeRequest, target, onPick }: ReusableProps) {
  const ref = target.attrs.data?.ref ?? {};
  const current: string = ref.reusableContent ?? '';
  const other = ref.space && ref.space !== space;
  const where = revisionPath(space, changeRequest);
  // by title, as a writer looks for one
  const list = useLoad(() => reusableContentsOf(space, changeRequest), where);
  const contents = list.data ?? [];
  const id = `block-reusable-${target.pos}`;
  if (other)
    return <span className="muted">Includes reusable content of another space ({current}): kept as it is.</span>;
  return (
    <>
      <label htmlFor={id}>
        Content{' '}
        <select
          id={id}
          value={current}
          onChange={(e) => {
            const c = contents.find((r) => r.id === e.target.value);
            if (c) onPick(c.id, c.title);
          }}
        >
          {!current && <option value="">Choose…</option>}
          {current && !contents.some((r) => r.id === current) && (
            <option value={current}>
              {current}
              {list.data ? ' (not in this space)' : ''}
            </option>
          )}
          {contents.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
        </select>
      </label>
      {list.data && contents.length === 0 && <span className="muted">This space has no reusable content.</span>}
      {list.error && (
        <span className="muted" role="status">
          The reusable contents could not be read: {list.error.message}
        </span>
      )}
    </>
  );
}
