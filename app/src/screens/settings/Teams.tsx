import { type FormEvent, useId, useState } from 'react';
import { type Member, settingsApi, type Team } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { RenameForm } from '../rename-form.tsx';
import { Confirm } from './common.tsx';

/** The organization's teams: create, rename, delete, and each team's members. */
export function Teams({ org }: { org: string }) {
  const list = useLoad(
    async () => ({ teams: await settingsApi.teams(org), members: await settingsApi.members(org) }),
    `teams:${org}`,
  );
  const [title, setTitle] = useState('');
  const action = useAction();
  const id = useId();
  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (await action.run(() => settingsApi.createTeam(org, title.trim()))) {
      setTitle('');
      list.reload();
    }
  };
  return (
    <>
      <form className="create" onSubmit={create} aria-label="Create a team">
        <div className="field">
          <label htmlFor={`${id}-title`}>Team name</label>
          <input id={`${id}-title`} required maxLength={64} value={title} onChange={(e) => setTitle(e.target.value)} />
        </div>
        <button type="submit" disabled={action.busy}>
          Create team
        </button>
        {action.error && <p role="alert">{action.error}</p>}
      </form>
      <h2 id="teams">Teams</h2>
      {list.error && <p role="alert">{list.error.message}</p>}
      {list.data?.teams.length === 0 && <p>No teams yet.</p>}
      <ul className="plain" aria-labelledby="teams">
        {list.data?.teams.map((t) => (
          <li key={t.id}>
            <TeamRow org={org} team={t} members={list.data?.members ?? []} onChanged={list.reload} />
          </li>
        ))}
      </ul>
    </>
  );
}

function TeamRow(props: { org: string; team: Team; members: Member[]; onChanged(): void }) {
  const { org, team } = props;
  const [open, setOpen] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const action = useAction();
  const rename = async (title: string) => {
    setRenaming(false);
    if (title.trim() && title.trim() !== team.title)
      await action.run(() => settingsApi.renameTeam(org, team.id, title.trim())).then(props.onChanged);
  };
  return (
    <div className="team">
      <div className="row">
        {renaming ? (
          <RenameForm
            label={`New name of ${team.title}`}
            initial={team.title}
            maxLength={64}
            onSave={rename}
            onCancel={() => setRenaming(false)}
          />
        ) : (
          <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {team.title}{' '}
            <span className="muted">
              ({team.members} {team.members === 1 ? 'member' : 'members'})
            </span>
          </button>
        )}
        <span className="actions">
          {!renaming && (
            <button type="button" onClick={() => setRenaming(true)} aria-label={`Rename ${team.title}`}>
              Rename
            </button>
          )}
          <Confirm
            label={`Delete ${team.title}`}
            onConfirm={() => void action.run(() => settingsApi.deleteTeam(org, team.id)).then(props.onChanged)}
          />
        </span>
      </div>
      {action.error && <p role="alert">{action.error}</p>}
      {open && <TeamMembers {...props} />}
    </div>
  );
}

function TeamMembers({
  org,
  team,
  members,
  onChanged,
}: {
  org: string;
  team: Team;
  members: Member[];
  onChanged(): void;
}) {
  const list = useLoad(() => settingsApi.teamMembers(org, team.id), `team:${team.id}`);
  const [pick, setPick] = useState('');
  const action = useAction();
  const id = useId();
  const inTeam = new Set((list.data ?? []).map((m) => m.organization.id));
  const changed = () => {
    list.reload();
    onChanged();
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!pick) return;
    await action.run(() => settingsApi.addTeamMember(org, team.id, pick));
    setPick('');
    changed();
  };
  return (
    <section className="team-members" aria-label={`Members of ${team.title}`}>
      {list.error && <p role="alert">{list.error.message}</p>}
      <ul className="settings-list">
        {list.data?.map((m) => (
          <li key={m.organization.id}>
            <span className="who">
              {m.organization.user.displayName} <span className="muted">({m.team.role})</span>
            </span>
            <button
              type="button"
              onClick={() =>
                void action.run(() => settingsApi.removeTeamMember(org, team.id, m.organization.id)).then(changed)
              }
            >
              Remove {m.organization.user.displayName} from {team.title}
            </button>
          </li>
        ))}
      </ul>
      {list.data?.length === 0 && <p className="muted">No members in this team yet.</p>}
      <form className="inline" onSubmit={add}>
        <label htmlFor={`${id}-add`}>Add to {team.title}</label>
        <select id={`${id}-add`} value={pick} onChange={(e) => setPick(e.target.value)}>
          <option value="">Choose a member…</option>
          {members
            .filter((m) => !inTeam.has(m.id))
            .map((m) => (
              <option key={m.id} value={m.id}>
                {m.user.displayName}
                {m.user.email ? ` (${m.user.email})` : ''}
              </option>
            ))}
        </select>
        <button type="submit" disabled={!pick || action.busy}>
          Add
        </button>
      </form>
      {action.error && <p role="alert">{action.error}</p>}
    </section>
  );
}
