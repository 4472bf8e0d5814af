import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useAction, useLoad } from '../api/use.ts';
import { type ApiToken, accountApi, type CreatedToken, when } from './AccountApi.ts';
import { AskFirst } from './AccountConfirm.tsx';

/**
 * The user's API tokens (`listApiTokens`): create one with a label (`createApiToken`), shown once with a copy button
 * and a warning; revoke one after confirming (`revokeApiToken`).
 */
export function AccountTokens() {
  const list = useLoad(() => accountApi.tokens(), 'account:tokens');
  const action = useAction();
  const [created, setCreated] = useState<CreatedToken>();
  const [said, setSaid] = useState('');
  const revoke = async (t: ApiToken) => {
    const done = await action.run(async () => {
      await accountApi.revokeToken(t.id);
      return true;
    });
    if (done) {
      setSaid(`Revoked the token “${t.label}”: it no longer works.`);
      if (created?.info.id === t.id) setCreated(undefined);
      list.reload();
    }
  };
  const tokens = list.data ?? [];
  return (
    <>
      <h2 id="tokens">API tokens</h2>
      <p className="muted">
        A token lets a script or the <code>quire</code> command call the API as you, with your access to every
        organization. Revoke the ones you no longer use.
      </p>
      <CreateToken
        onCreated={(c) => {
          setCreated(c);
          setSaid('');
          list.reload();
        }}
      />
      {created && <NewToken created={created} onDone={() => setCreated(undefined)} />}
      {list.error && <p role="alert">{list.error.message}</p>}
      {action.error && <p role="alert">{action.error}</p>}
      <p aria-live="polite" className="status">
        {said}
      </p>
      {list.data && tokens.length === 0 && <p>You have no API tokens.</p>}
      {tokens.length > 0 && (
        <ul className="settings-list" aria-labelledby="tokens">
          {tokens.map((t) => (
            <li key={t.id}>
              <span className="who">
                <strong>{t.label}</strong>{' '}
                <span className="muted">
                  created {when(t.createdAt)}, {t.lastUsedAt ? `last used ${when(t.lastUsedAt)}` : 'never used'}
                </span>
              </span>
              <span className="actions">
                <AskFirst
                  text="Revoke"
                  label={`Revoke the token ${t.label}`}
                  confirm={`Confirm revoke ${t.label}`}
                  disabled={action.busy}
                  onConfirm={() => void revoke(t)}
                />
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function CreateToken({ onCreated }: { onCreated(c: CreatedToken): void }) {
  const id = useId();
  const [label, setLabel] = useState('');
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const made = await action.run(() => accountApi.createToken(label.trim()));
    if (made) {
      setLabel('');
      onCreated(made);
    }
  };
  return (
    <form className="create" onSubmit={submit} aria-label="Create a token">
      <div className="field wide">
        <label htmlFor={`${id}-label`}>Token label</label>
        <input
          id={`${id}-label`}
          required
          maxLength={100}
          autoComplete="off"
          placeholder="What it is for (e.g. CI)"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
        />
      </div>
      <button type="submit" disabled={action.busy}>
        Create a token
      </button>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}

/** The token just created, shown this once: its value to copy, and the warning. The heading takes the focus. */
function NewToken({ created, onDone }: { created: CreatedToken; onDone(): void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState('');
  useEffect(() => heading.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      setCopied('Copied to the clipboard.');
    } catch {
      // No clipboard (a page not served over HTTPS, or the permission refused): the value is selected to copy by hand.
      field.current?.select();
      setCopied('The browser did not let the page copy it: the token is selected, copy it with Ctrl+C (⌘C).');
    }
  };
  return (
    <section className="new-token hint hint-warning" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`} ref={heading} tabIndex={-1}>
        New token “{created.info.label}”
      </h3>
      <p>
        <strong>Copy it now: it is shown only this once.</strong> Quire keeps only a fingerprint of it and cannot show
        it again. Anyone who has it can use the API as you: keep it out of chats, e-mails and code. If it is lost,
        revoke it and create another.
      </p>
      <div className="create">
        <div className="field wide">
          <label htmlFor={`${id}-value`}>Token</label>
          <input
            id={`${id}-value`}
            ref={field}
            readOnly
            className="token-value"
            value={created.token}
            onFocus={(e) => e.currentTarget.select()}
          />
        </div>
        <button type="button" onClick={() => void copy()}>
          Copy the token
        </button>
        <button type="button" onClick={onDone}>
          Done, I have copied it
        </button>
      </div>
      <p aria-live="polite" className="status">
        {copied}
      </p>
    </section>
  );
}
