import { type FormEvent, useId, useState } from 'react';
import { type Member, type Role, settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm, RoleSelect } from './common.tsx';

/** An invitation sent during this visit: the API lists no pending invitations, so the app keeps what it sent. */
interface Sent {
  email: string;
  role: Role | null;
  users: string[];
}

/** The organization's members: invite by e-mail with a role, change a role, remove. */
export function Members({ org }: { org: string }) {
  const list = useLoad(() => settingsApi.members(org), `members:${org}`);
  const action = useAction();
  const [sent, setSent] = useState<Sent[]>([]);
  const members = list.data ?? [];
  const ids = new Set(members.map((m) => m.id));
  const pending = sent.filter((s) => s.users.some((u) => !ids.has(u)));

  const setRole = (m: Member, role: Role | null) =>
    void action.run(() => settingsApi.setRole(org, m.id, role)).then(list.reload);
  const remove = (m: Member) => void action.run(() => settingsApi.removeMember(org, m.id)).then(list.reload);

  return (
    <>
      <InviteForm
        org={org}
        onSent={(s) => {
          setSent((x) => [s, ...x.filter((y) => y.email !== s.email)]);
          list.reload();
        }}
      />
      {pending.length > 0 && (
        <>
          <h2 id="pending">Pending invitations</h2>
          <p className="muted">
            Sent during this visit to people who already have an account: they join once they accept the e-mailed link
            (valid 7 days).
          </p>
          <ul className="plain" aria-labelledby="pending">
            {pending.map((s) => (
              <li key={s.email}>
                {s.email} <span className="muted">({s.role ?? 'guest'}, waiting for acceptance)</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h2 id="members">Members{list.data ? ` (${members.length})` : ''}</h2>
      {list.error && <p role="alert">{list.error.message}</p>}
      {action.error && <p role="alert">{action.error}</p>}
      <ul className="settings-list" aria-labelledby="members">
        {members.map((m) => (
          <li key={m.id}>
            <span className="who">
              <strong>{m.user.displayName}</strong>
              {m.user.email && <span className="muted"> {m.user.email}</span>}
            </span>
            <span className="actions">
              <RoleSelect
                label={`Role of ${m.user.displayName}`}
                value={m.role}
                guest
                disabled={action.busy}
                onChange={(r) => setRole(m, r)}
              />
              <Confirm label={`Remove ${m.user.displayName}`} onConfirm={() => remove(m)} disabled={action.busy} />
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

function InviteForm({ org, onSent }: { org: string; onSent(s: Sent): void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role | null>('read');
  const [done, setDone] = useState<string>();
  const action = useAction();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim();
    const res = await action.run(() => settingsApi.invite(org, [address], role));
    if (res) {
      setDone(`Invitation sent to ${address}.`);
      setEmail('');
      onSent({ email: address, role, users: res.users });
    }
  };
  return (
    <form className="create" onSubmit={submit} aria-label="Invite a member">
      <div className="field">
        <label htmlFor={`${id}-email`}>E-mail</label>
        <input
          id={`${id}-email`}
          type="email"
          required
          maxLength={320}
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-role`}>Role</label>
        <RoleSelect id={`${id}-role`} label="Role" value={role} onChange={setRole} guest />
      </div>
      <button type="submit" disabled={action.busy}>
        Invite
      </button>
      <p aria-live="polite" className="status">
        {action.error ? '' : done}
      </p>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}
