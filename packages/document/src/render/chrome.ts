import { html, join, type Html } from '../html.ts';

/**
 * What the published site draws around a page's document, shared by the sites service (its page,
 * services/sites/src/modules/published/render/navigation.ts and page-render.ts) and the app's Page screen
 * (app/src/render/chrome.ts), so both draw the same markup: the breadcrumbs, the outline ("On this page"), the
 * previous and next pages and "Last updated". Each caller gives the links of its own URLs.
 */

/** A page linked from the chrome: its title and where it is (no link: a group, which is no page to open). */
export interface ChromeLink {
  title: string;
  href: string | null;
}

/** The trail above the title: the crumbs (the space, the page's ancestors) then the page itself; none at the top. */
export function breadcrumbsHtml(crumbs: readonly ChromeLink[], current: string): Html {
  if (!crumbs.length) return html``;
  const items = crumbs.map((c) =>
    c.href === null ? html`<li>${c.title}</li>` : html`<li><a href="${c.href}">${c.title}</a></li>`,
  );
  const here = html`<li><span aria-current="page">${current}</span></li>`;
  return html`<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>${items}${here}</ol></nav>`;
}

/** A heading of the page as the renderer collected it (`RenderContext.headings`). */
export interface OutlineHeading {
  id: string;
  text: string;
  level: number;
}

/** "On this page": links to the page's headings of the first three levels; nothing when it has none. */
export function outlineHtml(headings: readonly OutlineHeading[]): Html {
  const shown = headings.filter((h) => h.level <= 3 && h.text);
  if (!shown.length) return html``;
  return html`<nav class="toc" aria-label="On this page"><p class="toc-title">On this page</p><ul>${shown.map(
    (h) => html`<li class="${`toc-${h.level}`}"><a href="#${h.id}">${h.text}</a></li>`,
  )}</ul></nav>`;
}

const hintText = (text: string, title: string) => html`<span class="hint-text">${text}</span><span>${title}</span>`;

/** The previous and next pages in reading order, as two cards; nothing when there is neither. */
export function prevNextHtml(
  prev: { title: string; href: string } | undefined,
  next: { title: string; href: string } | undefined,
): Html {
  if (!prev && !next) return html``;
  return html`<nav class="prev-next" aria-label="Previous and next pages">${join([
    prev
      ? html`<a class="prev" href="${prev.href}" rel="prev">${hintText('Previous', prev.title)}</a>`
      : html`<span></span>`,
    next ? html`<a class="next" href="${next.href}" rel="next">${hintText('Next', next.title)}</a>` : html``,
  ])}</nav>`;
}

/** "Last updated" and the day of the page's last edit (its ISO timestamp); nothing without one. */
export function updatedHtml(updatedAt: string | undefined): Html {
  return updatedAt
    ? html`<p class="updated">Last updated <time datetime="${updatedAt}">${updatedAt.slice(0, 10)}</time></p>`
    : html``;
}
