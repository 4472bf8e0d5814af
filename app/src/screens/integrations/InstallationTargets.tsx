import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/endpoints.ts';
import { type Installation, type Integration, integrations } from '../../api/integrations.ts';
import { settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm } from '../settings/common.tsx';
import { TargetConfiguration } from './TargetConfiguration.tsx';

/** What an installation is installed on below its organization, and how the screen reads and changes each kind. */
type Kind = 'space' | 'site';
interface Target {
  id: string;
  title: string;
}
interface KindOps {
  heading: string;
  selection(i: Installation): 'all' | 'selected';
  all: string;
  some: string;
  href(org: string, id: string): string;
  choices(org: string): Promise<Target[]>;
  installed(name: string, id: string): Promise<(Target | string)[]>;
  add(name: string, id: string, target: string): Promise<unknown>;
  remove(name: string, id: string, target: string): Promise<unknown>;
}
const KINDS: Record<Kind, KindOps> = {
  space: {
    heading: 'Spaces',
    selection: (i: Installation) => i.space_selection,
    all: 'It applies to every space of the organization. Adding a space limits it to the spaces listed here.',
    some: 'It applies to the spaces listed here only: their editors can insert its blocks.',
    href: (org: string, id: string) => `/o/${org}/s/${id}`,
    choices: (org: string) => api.spaces(org),
    installed: async (name: string, id: string): Promise<(Target | string)[]> =>
      (await integrations.spacesOf(name, id)).map((i) => i.space),
    add: (name: string, id: string, target: string) => integrations.installOnSpace(name, id, target),
    remove: (name: string, id: string, target: string) => integrations.uninstallFromSpace(name, id, target),
  },
  site: {
    heading: 'Sites',
    selection: (i: Installation) => i.site_selection,
    all: 'It applies to every site of the organization. Adding a site limits it to the sites listed here.',
    some: 'It applies to the sites listed here only.',
    href: (org: string, id: string) => `/o/${org}/sites/${id}`,
    choices: (org: string) => settingsApi.sites(org),
    installed: async (name: string, id: string): Promise<(Target | string)[]> =>
      (await integrations.sitesOf(name, id)).map((i) => i.site),
    add: (name: string, id: string, target: string) => integrations.installOnSite(name, id, target),
    remove: (name: string, id: string, target: string) => integrations.uninstallFromSite(name, id, target),
  },
};

/**
 * The spaces (or sites) an installation is installed on (`listIntegrationInstallationSpaces`/`…Sites`, extended: each
 * one's title), for its admins: add one of the organization's (`installIntegrationOnSpace`/`…Site`; the installation
 * then manages a selection), configure the integration on one (TargetConfiguration.tsx) or remove one after a
 * confirmation (`uninstallIntegrationFromSpace`/`…Site`).
 */
export function InstallationTargets(props: {
  kind: Kind;
  org: string;
  integration: Integration;
  installation: Installation;
  onChanged(): void;
}) {
  const { integration: it, installation: here, org } = props;
  const k = KINDS[props.kind];
  const id = useId();
  const installed = useLoad(() => k.installed(it.name, here.id), `installation-${props.kind}s:${here.id}`);
  const choices = useLoad(() => k.choices(org), `${props.kind}s:${org}`);
  const [chosen, setChosen] = useState('');
  const [notice, setNotice] = useState('');
  const action = useAction();
  const titleOf = (t: string) => choices.data?.find((s) => s.id === t)?.title ?? t;
  const rows = (installed.data ?? []).map((t) =>
    typeof t === 'string' ? { id: t, title: titleOf(t) } : { id: t.id, title: t.title },
  );
  const addable = (choices.data ?? []).filter((s) => !rows.some((r) => r.id === s.id));
  const changed = (message: string) => {
    setNotice(message);
    installed.reload();
    props.onChanged();
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return;
    if (await action.run(() => k.add(it.name, here.id, chosen))) {
      setChosen('');
      changed(`${it.title} is installed on ${titleOf(chosen)}.`);
    }
  };
  const remove = async (target: Target) => {
    const done = await action.run(() => k.remove(it.name, here.id, target.id).then(() => true));
    if (done) changed(`${it.title} is removed from ${target.title}.`);
  };
  return (
    <section aria-labelledby={`${id}-h`} className="stack">
      <h3 id={`${id}-h`}>{k.heading}</h3>
      <p className="muted">{k.selection(here) === 'all' ? k.all : k.some}</p>
      {installed.error && <p role="alert">{installed.error.message}</p>}
      {rows.length > 0 && (
        <ul className="settings-list" aria-labelledby={`${id}-h`}>
          {rows.map((t) => (
            <li key={t.id}>
              <span className="who">
                <Link href={k.href(org, t.id)}>{t.title}</Link>
              </span>
              <Confirm
                label={`Remove ${it.title} from ${t.title}`}
                onConfirm={() => void remove(t)}
                disabled={action.busy}
              />
              <TargetConfiguration kind={props.kind} integration={it} installation={here.id} target={t} />
            </li>
          ))}
        </ul>
      )}
      {installed.data && rows.length === 0 && <p>Not installed on any {props.kind} of its own.</p>}
      <form className="actions-row" onSubmit={add}>
        <label htmlFor={`${id}-add`}>Add a {props.kind}</label>
        <select id={`${id}-add`} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <option value="">{choices.data ? 'Choose…' : 'Loading…'}</option>
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
      {choices.error && (
        <p role="alert">
          The {props.kind}s could not be read: {choices.error.message}
        </p>
      )}
      <div role="status">{notice && <p>{notice}</p>}</div>
      <div role="alert">{action.error && <p className="error">{action.error}</p>}</div>
    </section>
  );
}
