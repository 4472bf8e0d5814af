import { type FormEvent, useEffect, useId, useState } from 'react';
import { type Installation, type Integration, integrations } from '../../api/integrations.ts';
import { useAction } from '../../api/use.ts';
import { type Choice, Confirm, SelectField } from '../settings/common.tsx';
import { ConfigurationFields, configurationOf, type Values, valuesOf } from './ConfigurationFields.tsx';
import { InstallationTargets } from './InstallationTargets.tsx';

type Selection = Installation['space_selection'];
const SELECTIONS: readonly Choice<Selection>[] = [
  ['all', 'All of them'],
  ['selected', 'A selection'],
];

/**
 * An installation in the organization: its state, the integration's `account` configuration form filled with the
 * installation's values, which spaces and sites it manages (`updateIntegrationInstallation`), the spaces it is
 * installed on and the sites (InstallationTargets.tsx), and uninstalling it after a confirmation (`uninstallIntegration`).
 */
export function InstallationPanel(props: { integration: Integration; installation: Installation; onChanged(): void }) {
  const id = useId();
  const { integration: it, installation: here } = props;
  const form = it.configurations.account;
  const [values, setValues] = useState<Values>(() => valuesOf(form, here.configuration));
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
    const configuration = configurationOf(form, values, here.configuration);
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
        <ConfigurationFields
          id={id}
          form={form}
          values={values}
          onChange={setValues}
          none="The integration has no settings of its own."
        />
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
