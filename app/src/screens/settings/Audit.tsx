import { type FormEvent, useId, useState } from 'react';
import { type AuditEvent, type AuditFilter, settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { SelectField } from './common.tsx';

/** The organization's audit log (admins only), newest first, filtered by action, actor, target and dates. */
export function Audit({ org }: { org: string }) {
  const actions = useLoad(() => settingsApi.auditActions(org), `audit-actions:${org}`);
  const [filter, setFilter] = useState<AuditFilter>({});
  const [more, setMore] = useState<{ items: AuditEvent[]; next?: string }>({ items: [] });
  const first = useLoad(
    async () => {
      const page = await settingsApi.auditEvents(org, filter);
      setMore({ items: [], next: page.next?.page });
      return page.items;
    },
    `audit:${org}:${JSON.stringify(filter)}`,
  );
  const action = useAction();
  const loadMore = async () => {
    const next = more.next;
    if (!next) return;
    const page = await action.run(() => settingsApi.auditEvents(org, filter, next));
    if (page) setMore((m) => ({ items: [...m.items, ...page.items], next: page.next?.page }));
  };
  const labels = new Map((actions.data?.items ?? []).map((a) => [a.id, a.label]));
  const events = [...(first.data ?? []), ...more.items];
  return (
    <>
      <Filters actions={actions.data?.items ?? []} onApply={setFilter} />
      <h2 id="events">Events</h2>
      {first.error && <p role="alert">{first.error.message}</p>}
      <p aria-live="polite" className="muted">
        {first.loading ? 'Loading…' : `${events.length} event${events.length === 1 ? '' : 's'} shown`}
      </p>
      <div className="table-wrap">
        <table aria-labelledby="events">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">By</th>
              <th scope="col">On</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.id}>
                <td>
                  <time dateTime={e.occurredAt}>{new Date(e.occurredAt).toLocaleString()}</time>
                </td>
                <td>
                  {labels.get(e.action) ?? e.action} <code className="muted">{e.action}</code>
                </td>
                <td>
                  {e.actor.label ?? e.actor.id} <span className="muted">({e.source})</span>
                </td>
                <td>
                  {e.target.type}: {e.target.label ?? e.target.id}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more.next && (
        <button type="button" onClick={loadMore} disabled={action.busy}>
          Show older events
        </button>
      )}
      {action.error && <p role="alert">{action.error}</p>}
    </>
  );
}

function Filters({ actions, onApply }: { actions: { id: string; label: string }[]; onApply(f: AuditFilter): void }) {
  const [f, setF] = useState({ action: '', actor: '', target: '', from: '', to: '' });
  const id = useId();
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = (s: string) => s.trim() || undefined;
    onApply({
      action: v(f.action),
      actor: v(f.actor),
      target: v(f.target),
      from: f.from ? new Date(`${f.from}T00:00:00`).toISOString() : undefined,
      to: f.to ? new Date(`${f.to}T23:59:59.999`).toISOString() : undefined,
    });
  };
  return (
    <form className="create" onSubmit={submit} aria-label="Filter the audit log">
      <SelectField
        id={`${id}-action`}
        label="Action"
        value={f.action}
        options={[['', 'Any action'], ...actions.map((a) => [a.id, a.label] as const)]}
        onChange={(action) => setF({ ...f, action })}
      />
      <div className="field">
        <label htmlFor={`${id}-actor`}>Actor (user id)</label>
        <input id={`${id}-actor`} maxLength={100} value={f.actor} onChange={set('actor')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-target`}>Target id</label>
        <input id={`${id}-target`} maxLength={100} value={f.target} onChange={set('target')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-from`}>From</label>
        <input id={`${id}-from`} type="date" value={f.from} onChange={set('from')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>To</label>
        <input id={`${id}-to`} type="date" value={f.to} onChange={set('to')} />
      </div>
      <button type="submit">Filter</button>
    </form>
  );
}
