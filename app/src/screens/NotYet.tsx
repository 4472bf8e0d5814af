import { Link } from 'wouter';

/**
 * An address of the app with no screen (`/o/{org}/…` or a space's `~/…` the API never gives as a `urls.app`: a
 * mistyped or outdated link), said plainly, with a way back. Every `urls.app` shape has a screen (docs/app.md).
 */
export default function NotYet({ what }: { what: string }) {
  return (
    <section className="narrow">
      <h1>No such screen</h1>
      <p>
        {what} is not a screen of the app: the address may be mistyped or out of date. Every address the API gives (
        <code>urls.app</code>) opens a screen.
      </p>
      <p>
        <Link href="/">Your organizations</Link>
      </p>
    </section>
  );
}
