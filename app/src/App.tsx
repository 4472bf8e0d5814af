import { Suspense, useEffect, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { csrfToken } from './api/client.ts';
import {
  Account,
  ChangeReview,
  ChangesList,
  CollectionSettings,
  NotYet,
  Organization,
  Organizations,
  OrgSettings,
  Outbox,
  IntegrationScreen,
  IntegrationsScreen,
  OpenAPISpecScreen,
  OpenAPISpecsScreen,
  Palette,
  RevisionScreen,
  SiteSettings,
  SpaceHistory,
  SpaceScreen,
  SpaceSettings,
  Trash,
} from './screens.ts';
import { isAccountTab } from './screens/AccountTabs.ts';
import { isTab } from './screens/settings/tabs.ts';

/** The organization of the current URL (`/o/{org}/…`), for the palette's search. */
const orgOf = (path: string) => /^\/o\/([^/]+)/.exec(path)?.[1];

export function App() {
  const [location] = useLocation();
  const org = orgOf(location);
  const [palette, setPalette] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A key the page already handled (the editor's link dialog on a selection) does not open the palette too.
      if (e.defaultPrevented) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k' && org) {
        e.preventDefault();
        setPalette(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [org]);

  // The outbox has no session (the instance admin may have no account yet): a header without the account's links.
  if (location === '/admin/outbox')
    return (
      <>
        <header className="bar">
          <a href="/login" className="brand">
            Quire
          </a>
        </header>
        <main id="main" tabIndex={-1}>
          <Suspense fallback={<p aria-live="polite">Loading…</p>}>
            <Outbox />
          </Suspense>
        </main>
      </>
    );
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="bar">
        <Link href="/" className="brand">
          Quire
        </Link>
        <nav aria-label="Account" className="bar-end">
          {org && (
            <button type="button" onClick={() => setPalette(true)} aria-keyshortcuts="Control+K Meta+K">
              Find… <kbd>Ctrl K</kbd>
            </button>
          )}
          <Link href="/account/developer">Account</Link>
          <form method="post" action="/logout">
            <input type="hidden" name="_csrf" value={csrfToken()} />
            <button type="submit">Sign out</button>
          </form>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p aria-live="polite">Loading…</p>}>
          <Switch>
            <Route path="/" component={Organizations} />
            <Route path="/o" component={Organizations} />
            <Route path="/account/:tab">
              {(p) => (isAccountTab(p.tab) ? <Account tab={p.tab} /> : <Redirect to="/account/developer" replace />)}
            </Route>
            <Route path="/o/:org/s/:space/~/changes">{(p) => <ChangesList org={p.org} space={p.space} />}</Route>
            <Route path="/o/:org/s/:space/~/changes/:cr/~/review">
              {(p) => <ChangeReview org={p.org} space={p.space} changeRequest={p.cr} />}
            </Route>
            <Route path="/o/:org/s/:space/~/changes/:cr/*?">
              {(p) => <SpaceScreen org={p.org} space={p.space} changeRequest={p.cr} path={p['*'] ?? ''} />}
            </Route>
            <Route path="/o/:org/c/:collection/~/settings">
              {(p) => <CollectionSettings org={p.org} collection={p.collection} />}
            </Route>
            <Route path="/o/:org/s/:space/~/history">{(p) => <SpaceHistory org={p.org} space={p.space} />}</Route>
            <Route path="/o/:org/s/:space/~/revisions/:revision/*?">
              {(p) => <RevisionScreen org={p.org} space={p.space} revision={p.revision} path={p['*'] ?? ''} />}
            </Route>
            <Route path="/o/:org/s/:space/~/settings">{(p) => <SpaceSettings org={p.org} space={p.space} />}</Route>
            <Route path="/o/:org/settings/:tab">
              {(p) => (isTab(p.tab) ? <OrgSettings org={p.org} tab={p.tab} /> : <NotYet what="This settings page" />)}
            </Route>
            <Route path="/o/:org/sites/:site?">{(p) => <SiteSettings org={p.org} site={p.site} />}</Route>
            <Route path="/o/:org/openapi">{(p) => <OpenAPISpecsScreen org={p.org} />}</Route>
            <Route path="/o/:org/integrations">{(p) => <IntegrationsScreen org={p.org} />}</Route>
            <Route path="/o/:org/openapi/:slug">{(p) => <OpenAPISpecScreen org={p.org} slug={p.slug} />}</Route>
            <Route path="/o/:org/integrations/:name">{(p) => <IntegrationScreen org={p.org} name={p.name} />}</Route>
            <Route path="/integrations/:name">{(p) => <IntegrationScreen name={p.name} />}</Route>
            <Route path="/o/:org/s/:space/~/*">{() => <NotYet what="This view of a space" />}</Route>
            <Route path="/o/:org/s/:space/*?">
              {(p) => <SpaceScreen org={p.org} space={p.space} path={p['*'] ?? ''} />}
            </Route>
            <Route path="/o/:org/trash">{(p) => <Trash org={p.org} />}</Route>
            <Route path="/o/:org/c/:collection">{(p) => <Organization org={p.org} collection={p.collection} />}</Route>
            <Route path="/o/:org">{(p) => <Organization org={p.org} />}</Route>
            <Route path="/o/:org/*">{() => <NotYet what="This screen" />}</Route>
            <Route>{() => <NotYet what="This page" />}</Route>
          </Switch>
        </Suspense>
      </main>
      {palette && org && (
        <Suspense fallback={null}>
          <Palette org={org} onClose={() => setPalette(false)} />
        </Suspense>
      )}
    </>
  );
}
