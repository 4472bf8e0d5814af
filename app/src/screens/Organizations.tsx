import { Link } from 'wouter';
import { api } from '../api/endpoints.ts';
import { useLoad } from '../api/use.ts';

export default function Organizations() {
  const orgs = useLoad(() => api.organizations(), 'orgs', { live: true });
  return (
    <section className="narrow">
      <h1>Your organizations</h1>
      {orgs.error && <p role="alert">{orgs.error.message}</p>}
      {orgs.data && orgs.data.length === 0 && <p>You are not a member of any organization yet.</p>}
      <ul className="cards">
        {orgs.data?.map((o) => (
          <li key={o.id}>
            <Link href={`/o/${o.id}`}>{o.title}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
