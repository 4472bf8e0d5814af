import { type FormEvent, useEffect, useId, useState } from 'react';
import { type Installation, type Integration, integrations } from '../../api/integrations.ts';
import { useAction } from '../../api/use.ts';
import { type Choice, Confirm, SelectField } from '../settings/common.tsx';
import { InstallationTargets } from './InstallationTargets.tsx';

type Form = NonNullable<Integration['configurations']['account']>;
type Property = Extract<Form, { properties: unknown }>['properties'][string];
type Values = Record<string, unknown>;

type Selection = Installation['space_selection'];
const SELECTIONS: readonly Choice<Selection>[] = [
  ['all', 'All of them'],
  ['selected', 'A selection'],
];

/** A property's starting value: the installation's, else the form's default, else empty. */
function initial(p: Property, v: unknown): unknown {
  if (v !== undefined) return v;
  if (p.type === 'button') return undefined;
  return p.default ?? (p.type === 'boolean' ? false : p.type === 'number' ? undefined : '');
}

/**
 * An installation in the organization: its state, the integration's `account` configuration form filled with the
 * installation's values, which spaces and sites it manages (`updateIntegrationInstallation`), the spaces it is
 * installed on and the sites (InstallationTargets.tsx), and uninstalling it after a confirmation (`uninstallIntegration`).
 */
export function InstallationPanel(props: { integration: Integration; installation: Installation; onChanged(): void }) {
  const id = useId();
  const { integration: it, installation: here } = props;
  const form = it.configurations.account;
  const properties = form && 'properties' in form ? Object.entries(form.properties) : [];
  const required = new Set(form && 'properties' in form ? (form.required ?? []) : []);
  const [values, setValues] = useState<Values>(() =>
    Object.fromEntries(properties.map(([k, p]) => [k, initial(p, here.configuration[k])])),
  );
  const [spaces, setSpaces] = useState(here.space_selection);
  // Adding a space or a site to the installation makes its selection `selected`: the form follows, so a save keeps it.
  useEffect(() => setSpaces(here.space_selection), [here.space_selection]);
  useEffect(() => setSites(here.site_selection), [here.site_selection]);
  const [sites, setSites] = useState(here.site_selection);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    // What the form does not show (set by the integration itself) is kept.
    const configuration: Values = { ...here.configuration };
    for (const [k, p] of properties) {
      const v = values[k];
      if (p.type === 'button') continue;
      if (v === undefined || v === '') delete configuration[k];
      else configuration[k] = v;
    }
    const done = await action.run(() =>
      integrations.updateInstallation(it.name, here.id, {
        configuration,
        space_selection: spaces,
        site_selection: sites,
      }),
    );
    if (done) {
      setSaved(true);
      props.onChanged();
    }
  };
  const uninstall = async () => {
    if ((await action.run(() => integrations.uninstall(it.name, here.id).then(() => true))) === true) props.onChanged();
  };
  return (
    <>
      <dl className="facts">
        <dt>Status</dt>
        <dd>{here.status}</dd>
        <dt>Installed</dt>
        <dd>{new Date(here.createdAt).toLocaleString()}</dd>
        <dt>Spaces</dt>
        <dd>{here.space_selection === 'all' ? 'all' : `a selection (${here.spaces})`}</dd>
        <dt>Sites</dt>
        <dd>{here.site_selection === 'all' ? 'all' : 'a selection'}</dd>
      </dl>
      <form className="stack" onSubmit={save} aria-labelledby={`${id}-h`}>
        <h3 id={`${id}-h`}>Configure</h3>
        {form && 'componentId' in form && (
          <p className="muted">
            Its configuration is a ContentKit component (<code>{form.componentId}</code>), which the app does not draw.
          </p>
        )}
        {properties.length === 0 && !(form && 'componentId' in form) && (
          <p className="muted">The integration has no settings of its own.</p>
        )}
        {properties.map(([k, p]) => (
          <PropertyField
            key={k}
            id={`${id}-${k}`}
            name={k}
            property={p}
            required={required.has(k)}
            value={values[k]}
            onChange={(v) => setValues((x) => ({ ...x, [k]: v }))}
          />
        ))}
        <SelectField<Selection>
          label="Spaces it manages"
          id={`${id}-spaces`}
          value={spaces}
          options={SELECTIONS}
          onChange={setSpaces}
        />
        <SelectField<Selection>
          label="Sites it manages"
          id={`${id}-sites`}
          value={sites}
          options={SELECTIONS}
          onChange={setSites}
        />
        <button type="submit" disabled={action.busy}>
          Save the configuration
        </button>
      </form>
      <div role="status">{saved && <p>Configuration saved.</p>}</div>
      {(['space', 'site'] as const).map((kind) => (
        <InstallationTargets
          key={kind}
          kind={kind}
          org={here.target.organization}
          integration={it}
          installation={here}
          onChanged={props.onChanged}
        />
      ))}
      <div className="actions-row">
        <Confirm label={`Uninstall ${it.title}`} onConfirm={() => void uninstall()} disabled={action.busy} />
      </div>
      <div role="alert">{action.error && <p className="error">{action.error}</p>}</div>
    </>
  );
}

/** One property of a configuration form: a text (a list when it has `enum`), a number, a checkbox. */
function PropertyField(props: {
  id: string;
  name: string;
  property: Property;
  required: boolean;
  value: unknown;
  onChange(v: unknown): void;
}) {
  const { id, property: p, value } = props;
  const label = p.title ?? props.name;
  const help = p.description ? (
    <span className="muted" id={`${id}-help`}>
      {p.description}
    </span>
  ) : null;
  const described = p.description ? `${id}-help` : undefined;
  if (p.type === 'button')
    return (
      <p className="muted">
        {label}: a button of the integration (<q>{p.button_text}</q>), which the app does not call.
      </p>
    );
  if (p.type === 'boolean')
    return (
      <label className="check">
        <input
          type="checkbox"
          checked={value === true}
          aria-describedby={described}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        <span>
          {label} {help}
        </span>
      </label>
    );
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {props.required ? ' (required)' : ''}
      </label>
      {p.type === 'string' && p.enum ? (
        <select
          id={id}
          required={props.required}
          aria-describedby={described}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => props.onChange(e.target.value)}
        >
          <option value="">—</option>
          {p.enum.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={p.type === 'number' ? 'number' : 'text'}
          step={p.type === 'number' ? 'any' : undefined}
          required={props.required}
          aria-describedby={described}
          value={value === undefined ? '' : String(value)}
          onChange={(e) =>
            props.onChange(
              p.type === 'number' ? (e.target.value === '' ? undefined : Number(e.target.value)) : e.target.value,
            )
          }
        />
      )}
      {help}
    </div>
  );
}
