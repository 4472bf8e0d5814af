import { screen } from './lazy.tsx';

// One chunk per screen: the shell holds the router, the header and the palette's trigger.
export const Organizations = screen(() => import('./screens/Organizations.tsx'));
export const Organization = screen(() => import('./screens/Organization.tsx'));
// The organization's trash: the deleted spaces the user may restore.
export const Trash = screen(() => import('./screens/Trash.tsx'));
export const SpaceScreen = screen(() => import('./screens/Space.tsx'));
export const Palette = screen(() => import('./screens/Palette.tsx'));
export const NotYet = screen(() => import('./screens/NotYet.tsx'));
// The user's own API tokens and sessions (`/account/developer`, `/account/sessions`).
export const Account = screen(() => import('./screens/Account.tsx'));
// The instance admin's outbox (no session: see screens/Outbox.tsx).
export const Outbox = screen(() => import('./screens/Outbox.tsx'));
export const PageView = screen(() => import('./screens/PageView.tsx'));
// The editor (TipTap): loaded only when a page is opened for editing.
export const PageEditor = screen(() => import('./screens/PageEditor.tsx'));
// The settings (screens/settings/): loaded first on their own URLs, else on demand.
export const OrgSettings = screen(() => import('./screens/settings/OrgSettings.tsx'));
export const SpaceSettings = screen(() => import('./screens/settings/SpaceSettings.tsx'));
export const SiteSettings = screen(() => import('./screens/settings/Sites.tsx'));
export const CollectionSettings = screen(() => import('./screens/settings/CollectionSettings.tsx'));
export const SpaceHistory = screen(() => import('./screens/History.tsx'));
// A revision's own screen (its `urls.app`): what made it and what it changed.
export const RevisionScreen = screen(() => import('./screens/Revision.tsx'));
// An OpenAPI specification's and an integration's (or its installation's) `urls.app`.
export const OpenAPISpecScreen = screen(() => import('./screens/OpenAPISpec.tsx'));
export const IntegrationScreen = screen(() => import('./screens/Integration.tsx'));
// The organization's OpenAPI specifications and integrations (`/o/{org}/openapi`, `/o/{org}/integrations`).
export const OpenAPISpecsScreen = screen(() => import('./screens/openapi/List.tsx'));
export const IntegrationsScreen = screen(() => import('./screens/integrations/List.tsx'));
// The change requests of a space (screens/changes/).
export const ChangesList = screen(() => import('./screens/changes/List.tsx'));
export const ChangeReview = screen(() => import('./screens/changes/Review.tsx'));

/** The screen of a path, loaded before the first render; the others are loaded right after it. */
export async function preloadScreens(path: string): Promise<void> {
  const settings = /^\/o\/[^/]+\/(settings\/|sites(\/[^/]+)?\/?$|s\/[^/]+\/~\/settings\/?$)/.exec(path)?.[1];
  if (settings) {
    const s = settings.startsWith('sites') ? SiteSettings : path.includes('/s/') ? SpaceSettings : OrgSettings;
    return void (await s.preload().catch(() => {}));
  }
  if (path === '/admin/outbox') return void (await Outbox.preload().catch(() => {}));
  if (path.startsWith('/account/')) return void (await Account.preload().catch(() => {}));
  if (/^\/o\/[^/]+\/s\/[^/]+\/~\/revisions\/[^/]+\/?$/.test(path))
    return void (await RevisionScreen.preload().catch(() => {}));
  if (/^\/o\/[^/]+\/trash\/?$/.test(path)) return void (await Trash.preload().catch(() => {}));
  const changes = /^\/o\/[^/]+\/s\/[^/]+\/~\/changes(\/[^/]+\/~\/review)?\/?$/.exec(path);
  if (changes) {
    await (changes[1] ? ChangeReview : ChangesList).preload().catch(() => {});
    return;
  }
  const first = /^\/o\/[^/]+\/s\//.test(path)
    ? [SpaceScreen, PageView]
    : /^\/o\/[^/]+(\/c\/[^/]+)?\/?$/.test(path)
      ? [Organization]
      : /^\/(o\/?)?$/.test(path)
        ? [Organizations]
        : [NotYet];
  await Promise.all(first.map((s) => s.preload())).catch(() => {});
}
export const preloadRest = () =>
  Promise.all(
    [Organizations, Organization, SpaceScreen, PageView, Palette, NotYet, ChangesList, ChangeReview].map((s) =>
      s.preload(),
    ),
  ).catch(() => {});
