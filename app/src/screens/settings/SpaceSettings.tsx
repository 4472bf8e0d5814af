import { Link } from 'wouter';
import { api } from '../../api/endpoints.ts';
import { useLoad } from '../../api/use.ts';
import { GitSync } from './GitSync.tsx';
import { MergeRules } from './MergeRules.tsx';
import { SpacePermissions } from './SpacePermissions.tsx';

/** `/o/{org}/s/{space}/~/settings`: a space's access, merge rules and Git sync. */
export default function SpaceSettings({ org, space }: { org: string; space: string }) {
  const s = useLoad(() => api.space(space), `space-settings:${space}`);
  const data = s.data;
  return (
    <section className="settings">
      <nav aria-label="Settings" className="settings-nav">
        <Link href={`/o/${org}/s/${space}`}>← Back to the space</Link>{' '}
        <Link href={`/o/${org}/s/${space}/~/history`}>History of the space</Link>
      </nav>
      <h1>{data ? `Settings of ${data.title || 'Untitled space'}` : 'Space settings'}</h1>
      {s.error && <p role="alert">{s.error.message}</p>}
      {data && (
        <>
          <SpacePermissions org={org} space={data} onChanged={s.reload} />
          {/* not keyed by the saved rules: a remount after a save would drop "Merge rules saved." */}
          <MergeRules space={data} onChanged={s.reload} />
          <GitSync space={space} />
        </>
      )}
    </section>
  );
}
