import { type FormEvent, useId, useState } from 'react';
import type { ops } from '@quire/contracts';
import type { Out } from '../api/client.ts';

type Mail = Out<typeof ops.listOutboxMails>['items'][number];

/**
 * The outbox, for the instance admin while no SMTP server is configured: the sign-in links and invitations the
 * instance would have mailed, newest first, until their link expires (`GET /v1/admin/outbox`). Reached without a
 * session (the admin may have no account to sign in with yet): it asks for the instance admin token (in
 * `<data dir>/admin-token`), kept in this page's memory only and sent as a bearer token.
 */
export default function Outbox() {
  const [token, setToken] = useState('');
  const [mails, setMails] = useState<Mail[]>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const id = useId();
  const load = async (e?: FormEvent) => {
    e?.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const res = await fetch('/v1/admin/outbox?limit=100', {
        headers: { authorization: `Bearer ${token.trim()}`, accept: 'application/json' },
        credentials: 'omit',
      });
      const body = (await res.json().catch(() => null)) as { items?: Mail[]; error?: { message: string } } | null;
      if (!res.ok)
        throw new Error(
          res.status === 401 || res.status === 403
            ? 'This is not the instance admin token.'
            : (body?.error?.message ?? `The outbox did not answer (${res.status}).`),
        );
      setMails(body?.items ?? []);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="narrow">
      <h1>Outbox</h1>
      <p>
        Without an SMTP server (<code>QUIRE_SMTP_URL</code>), the sign-in links and invitations Quire would have mailed
        are kept here until they expire. Each link signs its recipient in: give it to that person only.
      </p>
      <form onSubmit={load} className="create">
        <label htmlFor={id}>Instance admin token</label>
        <input
          id={id}
          type="password"
          autoComplete="off"
          required
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-describedby={`${id}-hint`}
        />
        <button type="submit" disabled={busy}>
          {mails ? 'Refresh' : 'Open the outbox'}
        </button>
      </form>
      <p id={`${id}-hint`} className="muted">
        It is in <code>.quire/admin-token</code> (or <code>QUIRE_ADMIN_TOKEN</code>) on the instance's machine.
      </p>
      {error && <p role="alert">{error}</p>}
      {mails && mails.length === 0 && <p aria-live="polite">The outbox is empty.</p>}
      {mails && mails.length > 0 && (
        <ul className="cards" aria-label="Mails">
          {mails.map((m) => (
            <li key={m.id} className="outbox-mail">
              <h2>{m.subject}</h2>
              <p>
                To <strong>{m.to}</strong> · {m.kind === 'invite' ? 'invitation' : 'sign-in link'} · written{' '}
                {new Date(m.createdAt).toLocaleString()} · expires {new Date(m.expiresAt).toLocaleString()}
              </p>
              <p className="outbox-link">
                <a href={m.link} rel="noreferrer">
                  {m.link}
                </a>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
