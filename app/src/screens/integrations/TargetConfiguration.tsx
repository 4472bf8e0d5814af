import { type FormEvent, useEffect, useId, useState } from 'react';
import {
  type Integration,
  integrations,
  type SiteInstallation,
  type SpaceInstallation,
  type TargetInstallationChange,
} from '../../api/integrations.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { ConfigurationFields, configurationOf, type Values, valuesOf } from './ConfigurationFields.tsx';

type Kind = 'space' | 'site';
type TargetInstallation = SpaceInstallation | SiteInstallation;

/** How the form reads and saves an installation on a space or on a site. */
const OPS: Record<
  Kind,
  {
    get(name: string, id: string, target: string): Promise<TargetInstallation>;
    update(name: string, id: string, target: string, body: TargetInstallationChange): Promise<TargetInstallation>;
  }
> = {
  space: { get: integrations.spaceInstallation, update: integrations.updateSpaceInstallation },
  site: { get: integrations.siteInstallation, update: integrations.updateSiteInstallation },
};

/** GitBook's limit of external IDs of an installation, and of one's length. */
export const EXTERNAL_IDS_MAX = 5;
const EXTERNAL_ID_MAX_CHARS = 256;

/** The external IDs written one a line: each trimmed, the empty lines dropped. */
export const externalIdsOf = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * The integration's configuration for one space (or site) it is installed on: the integration's `space` (`site`)
 * configuration form, filled with what the installation on it has (`getIntegrationSpaceInstallation`/`…Site`), and
 * its external IDs; saved with `updateIntegrationSpaceInstallation`/`…Site`. Shown when opened.
 */
export function TargetConfiguration(props: {
  kind: Kind;
  integration: Integration;
  installation: string;
  target: { id: string; title: string };
}) {
  const [open, setOpen] = useState(false);
  return (
    <details style={{ flexBasis: '100%' }} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Configure on {props.target.title}</summary>
      {open && <TargetForm {...props} />}
    </details>
  );
}

function TargetForm(props: {
  kind: Kind;
  integration: Integration;
  installation: string;
  target: { id: string; title: string };
}) {
  const { kind, integration: it, installation, target } = props;
  const id = useId();
  const form = it.configurations[kind];
  const loaded = useLoad(
    () => OPS[kind].get(it.name, installation, target.id),
    `${kind}-installation:${installation}:${target.id}`,
  );
  const [values, setValues] = useState<Values>();
  const [ids, setIds] = useState('');
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => {
    if (!loaded.data) return;
    setValues(valuesOf(form, loaded.data.configuration));
    setIds(loaded.data.externalIds.join('\n'));
  }, [loaded.data, form]);
  const externalIds = externalIdsOf(ids);
  const tooMany = externalIds.length > EXTERNAL_IDS_MAX;
  const tooLong = externalIds.some((x) => x.length > EXTERNAL_ID_MAX_CHARS);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!loaded.data || !values || tooMany || tooLong) return;
    setSaved(false);
    const body = { configuration: configurationOf(form, values, loaded.data.configuration), externalIds };
    if (await action.run(() => OPS[kind].update(it.name, installation, target.id, body))) {
      setSaved(true);
      loaded.reload();
    }
  };
  if (loaded.error) return <p role="alert">{loaded.error.message}</p>;
  if (!values) return <p className="muted">Loading…</p>;
  return (
    <form className="stack" onSubmit={save} aria-label={`Configuration on ${target.title}`}>
      <ConfigurationFields
        id={id}
        form={form}
        values={values}
        onChange={setValues}
        none={`The integration has no settings for a ${kind}.`}
      />
      <div className="field">
        <label htmlFor={`${id}-ids`}>External IDs (one a line, at most {EXTERNAL_IDS_MAX})</label>
        <textarea
          id={`${id}-ids`}
          rows={2}
          value={ids}
          aria-describedby={`${id}-ids-help`}
          aria-invalid={tooMany || tooLong}
          onChange={(e) => setIds(e.target.value)}
        />
        <span className="muted" id={`${id}-ids-help`}>
          {tooMany
            ? `Too many: ${externalIds.length} IDs, at most ${EXTERNAL_IDS_MAX}.`
            : tooLong
              ? `An ID is longer than ${EXTERNAL_ID_MAX_CHARS} characters.`
              : `What the integration knows this ${kind} by elsewhere.`}
        </span>
      </div>
      <button type="submit" disabled={action.busy || tooMany || tooLong}>
        Save the configuration on {target.title}
      </button>
      <div role="status">{saved && <p>Configuration on {target.title} saved.</p>}</div>
      <div role="alert">{action.error && <p className="error">{action.error}</p>}</div>
    </form>
  );
}
