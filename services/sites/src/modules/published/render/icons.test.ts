import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { html } from '@quire/document/render';
import { iconFile, iconHtml, iconName, iconUrl } from './icons.ts';
import { renderShell } from './layout.ts';

describe('icon names → Font Awesome files', () => {
  it('finds a solid icon, then a regular-only one, then a brand', () => {
    const book = iconFile('book-open')!;
    expect(basename(book)).toBe('book-open.svg');
    expect(basename(dirname(book))).toBe('solid');
    expect(readFileSync(book, 'utf8')).toMatch(/^<svg [^>]*viewBox/);
    expect(basename(dirname(iconFile('github')!))).toBe('brands');
    expect(iconUrl('book-open')).toBe('/_quire/icons/book-open.svg');
  });

  it('reads the spellings GitBook and Font Awesome use as the plain name', () => {
    expect(iconName('  Book-Open ')).toBe('book-open');
    expect(iconName('fa-book-open')).toBe('book-open');
    expect(iconName('fa-solid fa-book-open')).toBe('book-open');
    expect(iconUrl('fa-regular fa-face-smile')).toBe('/_quire/icons/face-smile.svg');
  });

  it('refuses names that could leave the folder or are no icon', () => {
    for (const bad of ['../package', '..', 'solid/book-open', 'book-open.svg', 'book_open', 'a'.repeat(65), '', ' ', 7])
      expect(iconFile(bad), String(bad)).toBeNull();
    expect(iconName('..%2fpackage')).toBeNull();
    expect(iconFile('no-such-icon-at-all')).toBeNull();
    expect(iconUrl('no-such-icon-at-all')).toBeNull();
  });

  it('draws an icon as a hidden mask beside the text, and nothing for an unknown name', () => {
    expect(iconHtml('rocket').value).toBe(
      '<span class="icon" aria-hidden="true" style="--icon:url(/_quire/icons/rocket.svg)"></span>',
    );
    expect(iconHtml('no-such-icon-at-all').value).toBe('');
    expect(iconHtml('"><script>').value).toBe('');
  });

  it("draws a section's and a section group's icon in the section tabs, and none for an unknown name", () => {
    const page = renderShell({
      siteTitle: 'Docs',
      siteHome: '/sites/docs',
      title: 'Home | Docs',
      index: true,
      sections: [
        { title: 'Intro', icon: 'house', href: '/sites/docs', current: true },
        { title: 'Odd', icon: 'no-such-icon-at-all', href: '/sites/docs/odd', current: false },
        {
          group: true,
          title: 'Learn',
          icon: 'graduation-cap',
          current: false,
          items: [{ title: 'API', href: '/sites/docs/api', current: false }],
        },
      ],
      variants: [],
      sidebar: html``,
      main: html`<p>Body</p>`,
      outline: html``,
      searchAction: '/sites/docs/~search',
      math: false,
    }).value;
    expect(page).toContain(
      '<a href="/sites/docs" aria-current="page"><span class="page-icon" aria-hidden="true" style="--icon:url(/_quire/icons/house.svg)"></span>Intro</a>',
    );
    expect(page).toContain('<a href="/sites/docs/odd">Odd</a>');
    expect(page).toContain(
      '<summary><span class="page-icon" aria-hidden="true" style="--icon:url(/_quire/icons/graduation-cap.svg)"></span>Learn</summary>',
    );
  });
});
