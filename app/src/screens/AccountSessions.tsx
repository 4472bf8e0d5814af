import { useState } from 'react';
import { ApiError } from '../api/client.ts';
import { useAction, useLoad } from '../api/use.ts';
import { accountApi, type UserSession, when } from './AccountApi.ts';
import { AskFirst } from './AccountConfirm.tsx';

/** Signs out one session; one that already ended (404) is as good as signed out. */
const signOut = (s: UserSession) =>
  accountApi.revokeSession(s.id).catch((err: unknown) => {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  });

/**
 * The browsers signed in to the account (`listUserSessions`), this one marked: sign out one (`revokeUserSession`),
 * every other one, or this browser (which ends here: the app goes to the sign-in page).
 */
export function AccountSessions() {
  const list = useLoad(() => accountApi.sessions(), 'account:sessions');
  const action = useAction();
  const [said, setSaid] = useState('');
  const sessions = list.data ?? [];
  const others = sessions.filter((s) => !s.current);
  const revoke = async (s: UserSession) => {
    const done = await action.run(async () => {
      await signOut(s);
      return true;
    });
    if (!done) return;
    if (s.current) return location.assign('/login');
    setSaid(`Signed out ${s.browser}, signed in ${when(s.createdAt)}.`);
    list.reload();
  };
  const revokeOthers = async () => {
    const n = others.length;
    const done = await action.run(async () => {
      for (const s of others) await signOut(s);
      return true;
    });
    if (done) setSaid(`Signed out ${n} other session${n === 1 ? '' : 's'}.`);
    list.reload();
  };
  return (
    <>
      <h2 id="sessions">Signed-in sessions</h2>
      <p className="muted">
        The browsers signed in to your account. A session ends 7 days after its sign-in, or after 12 hours without use.
        Sign out one you do not recognise: it stops working at once.
      </p>
      {list.error && <p role="alert">{list.error.message}</p>}
      {action.error && <p role="alert">{action.error}</p>}
      <p aria-live="polite" className="status">
        {said}
      </p>
      <ul className="settings-list" aria-labelledby="sessions">
        {sessions.map((s) => (
          <li key={s.id} className={s.current ? 'current-session' : undefined}>
            <span className="who">
              {s.current && <strong className="account-tag">This browser</strong>} <strong>{s.browser}</strong>
              {s.ipAddress && <span className="muted"> from {s.ipAddress}</span>}
              <br />
              <span className="muted">
                Signed in {when(s.createdAt)}, last active {when(s.lastSeenAt)}, ends by {when(s.expiresAt)}
              </span>
            </span>
            <span className="actions">
              {s.current ? (
                <AskFirst
                  text="Sign out"
                  label="Sign out this browser"
                  confirm="Confirm sign out of this browser"
                  disabled={action.busy}
                  onConfirm={() => void revoke(s)}
                />
              ) : (
                <AskFirst
                  text="Sign out"
                  label={`Sign out ${s.browser}, signed in ${when(s.createdAt)}`}
                  confirm={`Confirm sign out ${s.browser}`}
                  disabled={action.busy}
                  onConfirm={() => void revoke(s)}
                />
              )}
            </span>
          </li>
        ))}
      </ul>
      {list.data &&
        (others.length > 0 ? (
          <div className="account-others">
            <AskFirst
              text="Sign out everywhere else"
              label="Sign out everywhere else"
              confirm={`Confirm sign out of the ${others.length} other session${others.length === 1 ? '' : 's'}`}
              disabled={action.busy}
              onConfirm={() => void revokeOthers()}
            />
          </div>
        ) : (
          <p>You are signed in in this browser only.</p>
        ))}
    </>
  );
}
