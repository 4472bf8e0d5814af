import { type FormEvent, useId, useState } from 'react';
import { type Integration, integrations, type Publication } from '../../api/integrations.ts';
import { useAction } from '../../api/use.ts';
import { SelectField, TextField } from '../settings/common.tsx';
import { base64Of, ICON_MAX_BYTES, SCOPES, SCRIPT_MAX_CHARS, TARGETS, VISIBILITIES } from './fields.ts';

type Fields = Pick<Publication, 'title' | 'description' | 'scopes'> & {
  name: string;
  summary: string;
  visibility: NonNullable<Publication['visibility']>;
  target: NonNullable<Publication['target']>;
};

const fieldsOf = (it?: Integration): Fields => ({
  name: it?.name ?? '',
  title: it?.title ?? '',
  description: it?.description ?? '',
  summary: it?.summary ?? '',
  visibility: it?.visibility ?? 'private',
  target: it?.target ?? 'all',
  scopes: it?.scopes ?? [],
});

/**
 * Publishes an integration owned by `org` (`publishIntegration`: its admins publish), or, given `existing`, a new
 * version of it. The script is required each time (the API never returns it). A new version keeps what the API
 * returns and this form does not edit (categories, blocks, content sources, links, configuration forms, content
 * security policy) and the secrets; its icon and preview images are dropped unless an icon is chosen again.
 */
export function PublishForm(props: { org: string; existing?: Integration; onPublished(it: Integration): void }) {
  const id = useId();
  const { existing } = props;
  const [f, setF] = useState<Fields>(() => fieldsOf(existing));
  const [script, setScript] = useState('');
  const [icon, setIcon] = useState<File>();
  const [problem, setProblem] = useState<string>();
  const [round, setRound] = useState(0);
  const action = useAction();
  const set = <K extends keyof Fields>(k: K, v: Fields[K]) => setF((x) => ({ ...x, [k]: v }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!script.trim()) return setProblem('Give the script of the integration.');
    if (icon && icon.size > ICON_MAX_BYTES) return setProblem('The icon is larger than 256 KB.');
    setProblem(undefined);
    const body: Publication = {
      runtime: 'v1',
      title: f.title.trim(),
      description: f.description.trim(),
      ...(f.summary.trim() ? { summary: f.summary.trim() } : {}),
      visibility: f.visibility,
      target: f.target,
      scopes: f.scopes,
      script,
      organization: props.org,
      ...(icon ? { icon: await base64Of(icon) } : {}),
      ...(existing
        ? {
            categories: existing.categories,
            blocks: existing.blocks,
            contentSources: existing.contentSources,
            externalLinks: existing.externalLinks,
            configurations: existing.configurations,
            ...(existing.contentSecurityPolicy !== undefined
              ? { contentSecurityPolicy: existing.contentSecurityPolicy }
              : {}),
          }
        : {}),
    };
    const done = await action.run(() => integrations.publish(existing?.name ?? f.name.trim(), body));
    if (!done) return;
    setScript('');
    setIcon(undefined);
    setRound((n) => n + 1);
    if (!existing) setF(fieldsOf());
    props.onPublished(done);
  };
  const readScript = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > SCRIPT_MAX_CHARS * 4) return setProblem('The script is larger than 512 KB.');
    setScript(await file.text());
  };
  const what = existing ? 'Publish a new version' : 'Publish an integration';
  // Folded until asked for: the form is long, and most visits are not to publish.
  return (
    <details className="publish">
      <summary id={`${id}-h`}>{what}</summary>
      <form className="stack" onSubmit={submit} aria-labelledby={`${id}-h`}>
        {existing && (
          <p className="muted">
            Version {existing.version + 1}. The script is needed again (the API never returns it); the icon and the
            preview images are dropped unless an icon is chosen below. Secrets, blocks and configuration forms are kept.
          </p>
        )}
        {!existing && (
          <TextField
            label="Name (letters, digits, - _ and .; its address: cannot be changed)"
            id={`${id}-name`}
            required
            maxLength={100}
            pattern="[a-zA-Z0-9_.\-]+"
            value={f.name}
            onChange={(e) => set('name', e.target.value)}
          />
        )}
        <TextField
          label="Title (2 to 30 characters)"
          id={`${id}-title`}
          required
          minLength={2}
          maxLength={30}
          value={f.title}
          onChange={(e) => set('title', e.target.value)}
        />
        <TextField
          label="Description (at most 100 characters)"
          id={`${id}-description`}
          required
          maxLength={100}
          value={f.description}
          onChange={(e) => set('description', e.target.value)}
        />
        <div className="field">
          <label htmlFor={`${id}-summary`}>Summary (markdown, optional)</label>
          <textarea
            id={`${id}-summary`}
            maxLength={2048}
            rows={3}
            value={f.summary}
            onChange={(e) => set('summary', e.target.value)}
          />
        </div>
        <SelectField
          label="Who sees it"
          id={`${id}-visibility`}
          value={f.visibility}
          options={VISIBILITIES}
          onChange={(v) => set('visibility', v)}
        />
        <SelectField
          label="Where it can be installed"
          id={`${id}-target`}
          value={f.target}
          options={TARGETS}
          onChange={(v) => set('target', v)}
        />
        <fieldset className="source">
          <legend>Permissions it asks for</legend>
          <div className="scopes">
            {SCOPES.map(([scope, label]) => (
              <label key={scope} className="check">
                <input
                  type="checkbox"
                  checked={f.scopes.includes(scope)}
                  onChange={(e) =>
                    set('scopes', e.target.checked ? [...f.scopes, scope] : f.scopes.filter((s) => s !== scope))
                  }
                />
                <span>
                  {label} <code>{scope}</code>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-script-file`}>Script file (JavaScript)</label>
          <input
            key={`f${round}`}
            id={`${id}-script-file`}
            type="file"
            accept=".js,.mjs,text/javascript,application/javascript"
            onChange={(e) => void readScript(e.target.files?.[0])}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-script`}>Script (or paste it here)</label>
          <textarea
            id={`${id}-script`}
            className="script"
            required
            maxLength={SCRIPT_MAX_CHARS}
            value={script}
            onChange={(e) => setScript(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-icon`}>Icon (PNG, JPEG, GIF, WebP or SVG, at most 256 KB; optional)</label>
          <input
            key={`i${round}`}
            id={`${id}-icon`}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp,image/svg+xml"
            onChange={(e) => setIcon(e.target.files?.[0])}
          />
        </div>
        <button type="submit" disabled={action.busy}>
          {existing ? `Publish version ${existing.version + 1}` : 'Publish'}
        </button>
        <div role="alert">{(problem ?? action.error) && <p className="error">{problem ?? action.error}</p>}</div>
      </form>
    </details>
  );
}
