import { Link } from 'wouter';
import { useLoad } from '../api/use.ts';
import { accountApi } from './AccountApi.ts';
import { ACCOUNT_TABS, type AccountTab } from './AccountTabs.ts';
import './Account.css';
import { AccountSessions } from './AccountSessions.tsx';
import { AccountTokens } from './AccountTokens.tsx';

/**
 * `/account/developer` and `/account/sessions`: the signed-in user's own API tokens and sign-in sessions, through
 * `/v1/user`, `/v1/user/tokens` and `/v1/user/sessions`. The server-rendered `/account` page (no JavaScript) has the
 * same and the user's organizations and invitations; each links to the other.
 */
export default function Account({ tab }: { tab: AccountTab }) {
  const me = useLoad(() => accountApi.user(), 'account:user');
  return (
    <section className="settings">
      <h1>Your account</h1>
      {me.error && <p role="alert">{me.error.message}</p>}
      <p>
        {me.data ? (
          <>
            Signed in as <strong>{me.data.displayName}</strong>
            {me.data.email && <> ({me.data.email})</>}.
          </>
        ) : (
          <span className="muted">Loading your profile…</span>
        )}
      </p>
      <p className="muted">
        Your organizations and the invitations waiting for you are on the <a href="/account">account page</a>, which
        works without JavaScript too.
      </p>
      <nav aria-label="Account settings" className="settings-nav">
        <ul>
          {Object.entries(ACCOUNT_TABS).map(([id, label]) => (
            <li key={id}>
              <Link href={`/account/${id}`} aria-current={id === tab ? 'page' : undefined}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'developer' ? <AccountTokens /> : <AccountSessions />}
    </section>
  );
}
