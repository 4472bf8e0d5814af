import { type FormEvent, useId, useState } from 'react';
import { settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm, SelectField } from './common.tsx';

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : 'never');

/** A space's Git sync: its state, last sync and errors; connect to a repository and branch, or disconnect. */
export function GitSync({ space }: { space: string }) {
  const state = useLoad(async () => {
    const [info, connection] = await Promise.all([settingsApi.gitInfo(space), settingsApi.gitConnection(space)]);
    return { info, connection };
  }, `git:${space}`);
  const action = useAction();
  const id = useId();
  const s = state.data;
  const sync = s?.info?.sync;
  const op = s?.info?.operation;
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Git sync</h2>
      {state.error && <p role="alert">{state.error.message}</p>}
      {s && !s.info && !s.connection && <p>This space is not synced with a Git repository.</p>}
      {s?.info && (
        <dl className="facts">
          <dt>Repository</dt>
          <dd>{s.info.url ?? s.info.repoName ?? '—'}</dd>
          <dt>State</dt>
          <dd>{sync ? sync.state : s.info.installationStatus}</dd>
          <dt>Last sync</dt>
          <dd>
            {when(sync?.lastSyncedAt)}
            {sync?.lastCommit && <code className="muted"> {sync.lastCommit.slice(0, 12)}</code>}
          </dd>
          {op && (
            <>
              <dt>Latest operation</dt>
              <dd>
                {op.direction} {op.state}, {when(op.endedAt ?? op.startedAt)}
              </dd>
            </>
          )}
          {(sync?.lastError ?? op?.error) && (
            <>
              <dt>Error</dt>
              <dd className="error">{sync?.lastError ?? op?.error}</dd>
            </>
          )}
        </dl>
      )}
      {s?.connection ? (
        <>
          <p>
            Connected to <strong>{s.connection.url}</strong>, branch{' '}
            <code>{s.connection.ref.replace(/^refs\/heads\//, '')}</code>
            {s.connection.repoProjectDirectory && (
              <>
                , folder <code>{s.connection.repoProjectDirectory}</code>
              </>
            )}
            : merges are exported, new commits are imported (checked every {s.connection.pollInterval} s).
          </p>
          <Confirm
            label="Disconnect from Git"
            disabled={action.busy}
            onConfirm={() => void action.run(() => settingsApi.disconnectGit(space)).then(state.reload)}
          />
        </>
      ) : (
        s && <ConnectForm space={space} onDone={state.reload} />
      )}
      {action.error && <p role="alert">{action.error}</p>}
    </section>
  );
}

function ConnectForm({ space, onDone }: { space: string; onDone(): void }) {
  const [f, setF] = useState({ url: '', branch: 'main', dir: '', initial: '' });
  const action = useAction();
  const id = useId();
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = {
      url: f.url.trim(),
      ref: `refs/heads/${f.branch.trim()}`,
      ...(f.dir.trim() ? { repoProjectDirectory: f.dir.trim() } : {}),
      ...(f.initial ? { initialSync: f.initial as 'import' | 'export' } : {}),
    };
    if (await action.run(() => settingsApi.connectGit(space, body))) onDone();
  };
  return (
    <form className="create" onSubmit={submit} aria-label="Connect to a Git repository">
      <div className="field wide">
        <label htmlFor={`${id}-url`}>Repository URL (http or https)</label>
        <input id={`${id}-url`} type="url" required maxLength={2048} value={f.url} onChange={set('url')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-branch`}>Branch</label>
        <input id={`${id}-branch`} required maxLength={200} value={f.branch} onChange={set('branch')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-dir`}>Folder (optional)</label>
        <input id={`${id}-dir`} maxLength={500} value={f.dir} onChange={set('dir')} />
      </div>
      <SelectField
        id={`${id}-initial`}
        label="First sync"
        value={f.initial}
        options={[
          ['', 'Automatic'],
          ['import', 'Import: the repository becomes the content'],
          ['export', 'Export: the content is committed to the branch'],
        ]}
        onChange={(initial) => setF({ ...f, initial })}
      />
      <button type="submit" disabled={action.busy}>
        Connect
      </button>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}
