import { type FormEvent, useId, useState } from 'react';
import { type Member, type PendingInvite, type Role, settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm, RoleSelect, TextField } from './common.tsx';

/**
 * The organization's members: invite by e-mail with a role, change a role, remove; and the pending invitations
 * (`GET …/invites`, Quire's), each of which can be withdrawn.
 */
export function Members({ org }: { org: string }) {
  const list = useLoad(() => settingsApi.members(org), `members:${org}`);
  const invites = useLoad(() => settingsApi.invites(org), `invites:${org}`);
  const action = useAction();
  const members = list.data ?? [];
  const pending = invites.data ?? [];
  const withdraw = (i: PendingInvite) =>
    void action.run(() => settingsApi.withdrawInvite(org, i.id)).then(invites.reload);

  const setRole = (m: Member, role: Role | null) =>
    void action.run(() => settingsApi.setRole(org, m.id, role)).then(list.reload);
  const remove = (m: Member) => void action.run(() => settingsApi.removeMember(org, m.id)).then(list.reload);

  return (
    <>
      <InviteForm
        org={org}
        onSent={() => {
          list.reload();
          invites.reload();
        }}
      />
      {pending.length > 0 && (
        <>
          <h2 id="pending">Pending invitations ({pending.length})</h2>
          <p className="muted">
            Each e-mailed link works 7 days, once. Someone who already had an account joins only by accepting; a new
            address is a member at once and signs in with the link. Withdrawing stops the link.
          </p>
          <ul className="settings-list" aria-labelledby="pending">
            {pending.map((i) => (
              <li key={i.id}>
                <span className="who">
                  <strong>{i.user.email}</strong>{' '}
                  <span className="muted">
                    ({i.role ?? 'guest'}, {i.joins ? 'waiting for acceptance' : 'a member; link not used yet'}, expires{' '}
                    {new Date(i.expiresAt).toLocaleDateString()})
                  </span>
                </span>
                <span className="actions">
                  <Confirm
                    label={`Withdraw the invitation of ${i.user.email}`}
                    onConfirm={() => withdraw(i)}
                    disabled={action.busy}
                  />
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {invites.error && <p role="alert">{invites.error.message}</p>}
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

function InviteForm({ org, onSent }: { org: string; onSent(): void }) {
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
      onSent();
    }
  };
  return (
    <form className="create" onSubmit={submit} aria-label="Invite a member">
      <TextField
        label="E-mail"
        id={`${id}-email`}
        type="email"
        required
        maxLength={320}
        autoComplete="off"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
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
