import { html, type Html, type Interpolation } from './html.ts';

/** The stylesheet of every page of the instance: the published site's (the gateway serves it, same origin). */
export const PAGE_STYLESHEET = '/_quire/site/site-v1.css';

export interface InstancePage {
  /** The page's heading, and its `<title>` (followed by `· Quire`). */
  title: string;
  /** What follows the heading in `<main>`: markup of the `html` template (a string is escaped as text). */
  body: Interpolation;
  /** The class of `<main>`, the look the stylesheet gives it: `sign-in` (one centred column), `error-page`. */
  kind?: 'sign-in' | 'error-page';
}

/**
 * The one layout of the instance's own pages outside a published site: the sign-in and account pages (org-admin)
 * and the gateway's error pages. A page in the published site's look, readable at 375 px, no script, nothing from
 * another origin; every interpolated string is escaped by the `html` template.
 */
export function instancePage({ title, body, kind }: InstancePage): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Quire</title>
<link rel="stylesheet" href="${PAGE_STYLESHEET}">
</head>
<body>
<main id="content"${kind ? html` class="${kind}"` : ''}><h1>${title}</h1>${body}</main>
</body>
</html>
`;
}
