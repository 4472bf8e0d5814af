import { type FormEvent, useId, useState } from 'react';
import {
  type DefaultLevel,
  type Member,
  ROLES,
  type Role,
  settingsApi,
  type Target,
  type Team,
} from '../../api/settings.ts';

/** What permissions are given on: a space, or a collection (`target` `{ collection }`). */
interface On {
  id: string;
  defaultLevel?: DefaultLevel | undefined;
}
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm, RoleSelect, roleLabel } from './common.tsx';

/** A space's access: its default level, and the roles given to users and teams (`inviteToSpace`). */
export function SpacePermissions(props: { org: string; space: On; onChanged(): void; collection?: boolean }) {
  const { org, space, onChanged } = props;
  const noun = props.collection ? 'collection' : 'space';
  const on: Target = props.collection ? { collection: space.id } : space.id;
  const grants = useLoad(async () => {
    const [users, teams, members, orgTeams] = await Promise.all([
      settingsApi.userPermissions(on),
      settingsApi.teamPermissions(on),
      settingsApi.members(org),
      settingsApi.teams(org),
    ]);
    return { users, teams, members, orgTeams };
  }, `perm:${space.id}`);
  const action = useAction();
  const run = (fn: () => Promise<unknown>) => void action.run(fn).then(grants.reload);
  const g = grants.data;
  return (
    <section aria-labelledby="access">
      <h2 id="access">Access</h2>
      <DefaultLevelForm space={space} on={on} noun={noun} onChanged={onChanged} />
      <h3 id="grants">People and teams with access</h3>
      {grants.error && <p role="alert">{grants.error.message}</p>}
      {action.error && <p role="alert">{action.error}</p>}
      {g && g.users.length + g.teams.length === 0 && <p className="muted">No one has been given a role here.</p>}
      <ul className="settings-list" aria-labelledby="grants">
        {g?.users.map((p) => (
          <li key={`u:${p.user.id}`}>
            <span className="who">{p.user.displayName}</span>
            <span className="actions">
              <RoleSelect
                label={`Role of ${p.user.displayName} on this ${noun}`}
                value={p.permission}
                onChange={(r) => r && run(() => settingsApi.setUserPermission(on, p.user.id, r))}
              />
              <Confirm
                label={`Remove ${p.user.displayName}'s access`}
                onConfirm={() => run(() => settingsApi.removeUserPermission(on, p.user.id))}
              />
            </span>
          </li>
        ))}
        {g?.teams.map((p) => (
          <li key={`t:${p.team.id}`}>
            <span className="who">
              {p.team.title} <span className="muted">(team)</span>
            </span>
            <span className="actions">
              <RoleSelect
                label={`Role of team ${p.team.title} on this ${noun}`}
                value={p.permission}
                onChange={(r) => r && run(() => settingsApi.setTeamPermission(on, p.team.id, r))}
              />
              <Confirm
                label={`Remove team ${p.team.title}'s access`}
                onConfirm={() => run(() => settingsApi.removeTeamPermission(on, p.team.id))}
              />
            </span>
          </li>
        ))}
      </ul>
      {g && <GrantForm space={on} noun={noun} members={g.members} teams={g.orgTeams} onDone={grants.reload} />}
    </section>
  );
}

function DefaultLevelForm(props: { space: On; on: Target; noun: string; onChanged(): void }) {
  const { space, on, noun, onChanged } = props;
  const action = useAction();
  const id = useId();
  const [done, setDone] = useState('');
  const change = async (v: string) => {
    const level = (v === '' ? null : v) as DefaultLevel;
    if (await action.run(() => settingsApi.setDefaultLevel(on, level).then(() => true))) {
      setDone('Default access saved.');
      onChanged();
    }
  };
  return (
    <div className="field">
      <label htmlFor={`${id}-default`}>Everyone in the organization</label>
      <select
        id={`${id}-default`}
        value={space.defaultLevel ?? ''}
        disabled={action.busy}
        onChange={(e) => void change(e.target.value)}
        aria-describedby={`${id}-default-help`}
      >
        <option value="inherit">Inherit (from the collection or organization)</option>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {roleLabel(r)}
          </option>
        ))}
        <option value="">No access</option>
      </select>
      <span id={`${id}-default-help`} className="muted">
        The role every member has on this {noun} unless given another one below.
      </span>
      <span aria-live="polite">{done}</span>
      {action.error && <p role="alert">{action.error}</p>}
    </div>
  );
}

function GrantForm(props: { space: Target; noun: string; members: Member[]; teams: Team[]; onDone(): void }) {
  const [who, setWho] = useState('');
  const [role, setRole] = useState<Role | null>('edit');
  const action = useAction();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const [kind, target] = who.split(':') as [string, string];
    if (!target || !role) return;
    const invitees = kind === 'team' ? { teams: [target] } : { users: [target] };
    if ((await action.run(() => settingsApi.grant(props.space, invitees, role).then(() => true))) === true) {
      setWho('');
      props.onDone();
    }
  };
  return (
    <form className="create" onSubmit={submit} aria-label={`Give access to this ${props.noun}`}>
      <div className="field">
        <label htmlFor={`${id}-who`}>Give access to</label>
        <select id={`${id}-who`} value={who} onChange={(e) => setWho(e.target.value)} required>
          <option value="">Choose a member or a team…</option>
          <optgroup label="Members">
            {props.members.map((m) => (
              <option key={m.id} value={`user:${m.id}`}>
                {m.user.displayName}
                {m.user.email ? ` (${m.user.email})` : ''}
              </option>
            ))}
          </optgroup>
          <optgroup label="Teams">
            {props.teams.map((t) => (
              <option key={t.id} value={`team:${t.id}`}>
                {t.title}
              </option>
            ))}
          </optgroup>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-role`}>Role</label>
        <RoleSelect id={`${id}-role`} label="Role" value={role} onChange={setRole} />
      </div>
      <button type="submit" disabled={action.busy || !who}>
        Give access
      </button>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}
