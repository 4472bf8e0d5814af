import { Link } from 'wouter';
import { settingsApi } from '../../api/settings.ts';
import { useLoad } from '../../api/use.ts';
import { SpacePermissions } from './SpacePermissions.tsx';

/** `/o/{org}/c/{collection}/~/settings`: a collection's access (`inviteToCollection` and its lists). */
export default function CollectionSettings({ org, collection }: { org: string; collection: string }) {
  const c = useLoad(() => settingsApi.collection(collection), `collection-settings:${collection}`);
  const data = c.data;
  return (
    <section className="settings">
      <nav aria-label="Settings" className="settings-nav">
        <Link href={`/o/${org}/c/${collection}`}>← Back to the collection</Link>
      </nav>
      <h1>{data ? `Settings of ${data.title || 'Untitled collection'}` : 'Collection settings'}</h1>
      {c.error && <p role="alert">{c.error.message}</p>}
      {data && <SpacePermissions org={org} space={data} onChanged={c.reload} collection />}
    </section>
  );
}
