import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/endpoints.ts';
import { type Installation, type Integration, integrations } from '../../api/integrations.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm } from '../settings/common.tsx';

/**
 * The spaces an installation is installed on (`listIntegrationInstallationSpaces`, extended: each space's title), for
 * its admins: add one of the organization's spaces (`installIntegrationOnSpace`; the installation then manages a
 * selection) or remove one (`uninstallIntegrationFromSpace`).
 */
export function InstallationSpaces(props: {
  org: string;
  integration: Integration;
  installation: Installation;
  onChanged(): void;
}) {
  const { integration: it, installation: here } = props;
  const id = useId();
  const installed = useLoad(() => integrations.spacesOf(it.name, here.id), `installation-spaces:${here.id}`);
  const spaces = useLoad(() => api.spaces(props.org), `spaces:${props.org}`);
  const [chosen, setChosen] = useState('');
  const [notice, setNotice] = useState('');
  const action = useAction();
  const titleOf = (space: string) => spaces.data?.find((s) => s.id === space)?.title ?? space;
  const onIt = new Set((installed.data ?? []).map((i) => (typeof i.space === 'string' ? i.space : i.space.id)));
  const addable = (spaces.data ?? []).filter((s) => !onIt.has(s.id));
  const changed = (message: string) => {
    setNotice(message);
    installed.reload();
    props.onChanged();
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return;
    if (await action.run(() => integrations.installOnSpace(it.name, here.id, chosen))) {
      setChosen('');
      changed(`${it.title} is installed on ${titleOf(chosen)}.`);
    }
  };
  const remove = async (space: string) => {
    const done = await action.run(() => integrations.uninstallFromSpace(it.name, here.id, space).then(() => true));
    if (done) changed(`${it.title} is removed from ${titleOf(space)}.`);
  };
  return (
    <section aria-labelledby={`${id}-h`} className="stack">
      <h3 id={`${id}-h`}>Spaces</h3>
      <p className="muted">
        {here.space_selection === 'all'
          ? 'It applies to every space of the organization. Adding a space limits it to the spaces listed here.'
          : 'It applies to the spaces listed here only: their editors can insert its blocks.'}
      </p>
      {installed.error && <p role="alert">{installed.error.message}</p>}
      {installed.data && installed.data.length > 0 && (
        <ul className="settings-list" aria-labelledby={`${id}-h`}>
          {installed.data.map((i) => {
            const space = typeof i.space === 'string' ? i.space : i.space.id;
            const title = typeof i.space === 'string' ? titleOf(i.space) : i.space.title;
            return (
              <li key={space}>
                <span className="who">
                  <Link href={`/o/${props.org}/s/${space}`}>{title}</Link>
                </span>
                <Confirm
                  label={`Remove ${it.title} from ${title}`}
                  onConfirm={() => void remove(space)}
                  disabled={action.busy}
                />
              </li>
            );
          })}
        </ul>
      )}
      {installed.data && installed.data.length === 0 && <p>Not installed on any space of its own.</p>}
      <form className="actions-row" onSubmit={add}>
        <label htmlFor={`${id}-add`}>Add a space</label>
        <select id={`${id}-add`} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <option value="">{spaces.data ? 'Choose…' : 'Loading…'}</option>
          {addable.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
        <button type="submit" disabled={!chosen || action.busy}>
          Add
        </button>
      </form>
      {spaces.error && <p role="alert">The spaces could not be read: {spaces.error.message}</p>}
      <div role="status">{notice && <p>{notice}</p>}</div>
      <div role="alert">{action.error && <p className="error">{action.error}</p>}</div>
    </section>
  );
}
