import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { html, type Html } from '@quire/document/render';

/**
 * GitBook's icons (a page's `icon`, the document's `icon` inline) name an icon of Font Awesome (`book-open`, as Git
 * Sync's front matter writes it). Quire draws those of Font Awesome Free (`@fortawesome/fontawesome-free`: MIT code,
 * CC BY 4.0 icons), one SVG per name, served by the gateway under `/_quire/icons/{name}.svg` with a year's cache.
 * A name is looked up among the solid icons, then the regular ones, then the brands; a name of none draws nothing.
 */
export const ICON_URL_PREFIX = '/_quire/icons/';
const STYLES = ['solid', 'regular', 'brands'] as const;
/** A Font Awesome name: lowercase words of letters and digits joined by dashes; nothing else reaches the disk. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const NAME_MAX = 64;

let files: Map<string, string> | null = null;
/** Every icon of the package: name → file (the first style that has it), read once from the package's `svgs/`. */
function iconFiles(): Map<string, string> {
  if (files) return files;
  const root = join(
    dirname(createRequire(import.meta.url).resolve('@fortawesome/fontawesome-free/package.json')),
    'svgs',
  );
  const found = new Map<string, string>();
  for (const style of STYLES)
    for (const entry of readdirSync(join(root, style))) {
      const name = entry.endsWith('.svg') ? entry.slice(0, -4) : '';
      if (NAME.test(name) && !found.has(name)) found.set(name, join(root, style, entry));
    }
  files = found;
  return found;
}

/**
 * The name as Font Awesome spells it: trimmed, lowercase, without a `fa-` prefix or a style class before it
 * (`fa-solid fa-book-open` → `book-open`); null when it cannot be one.
 */
export function iconName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const last = value.trim().toLowerCase().split(/\s+/).pop() ?? '';
  const name = last.startsWith('fa-') ? last.slice(3) : last;
  return name.length <= NAME_MAX && NAME.test(name) ? name : null;
}

/** The SVG file of an icon name, or null when the name is no icon of the package (nothing else is ever read). */
export function iconFile(value: unknown): string | null {
  const name = iconName(value);
  return name ? (iconFiles().get(name) ?? null) : null;
}

/** The URL of an icon's SVG on the gateway, or null when the name is no icon. */
export function iconUrl(value: unknown): string | null {
  const name = iconName(value);
  return name && iconFiles().has(name) ? `${ICON_URL_PREFIX}${name}.svg` : null;
}

/**
 * An icon beside a text: a box the text's colour fills through the SVG as a mask (so it follows light and dark),
 * hidden from screen readers (the text beside it says what it is); nothing for a name that is no icon.
 */
export function iconHtml(value: unknown, className = 'icon'): Html {
  const url = iconUrl(value);
  return url ? html`<span class="${className}" aria-hidden="true" style="${`--icon:url(${url})`}"></span>` : html``;
}
