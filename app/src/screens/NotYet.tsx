import { Link } from 'wouter';

/** The screens of the app that do not exist yet (settings, sites, review…): said plainly, with a way back. */
export default function NotYet({ what }: { what: string }) {
  return (
    <section className="narrow">
      <h1>Not in the app yet</h1>
      <p>{what} is not part of the app yet. Everything it shows is available through the API (see /docs).</p>
      <p>
        <Link href="/">Your organizations</Link>
      </p>
    </section>
  );
}
