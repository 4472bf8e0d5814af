/**
 * The one way published pages are written: `html\`<p>${text}</p>\`` escapes every interpolated string
 * (text and attribute values alike: `& < > " '`), inserts `Html` values (already safe markup) as they are,
 * and joins arrays. Attribute values are always quoted in templates. URLs from content go through
 * `safeUrl` first: only http(s), mailto, tel and relative URLs reach an `href` or `src`.
 */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export type Interpolation = Html | string | number | boolean | null | undefined | readonly Interpolation[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and quoted attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Markup that is already safe (the output of a renderer, KaTeX, shiki): use only on trusted producers. */
export const raw = (markup: string): Html => new Html(markup);

function piece(v: Interpolation): string {
  if (v instanceof Html) return v.value;
  if (v === null || v === undefined || v === false || v === true) return '';
  if (Array.isArray(v)) return v.map(piece).join('');
  return esc(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Joins fragments (arrays of `Html`) into one. */
export const join = (parts: readonly Interpolation[], sep = ''): Html => new Html(parts.map(piece).join(sep));

const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

/**
 * The URL when a link may point there: http(s), mailto, tel, or relative (`/x`, `x`, `#a`, `?q`); null
 * otherwise (`javascript:`, `data:`, `vbscript:`…). Browsers drop tabs and newlines inside a URL and
 * controls or spaces around it before reading the scheme: so does this check.
 */
export function safeUrl(url: string): string | null {
  const normalised = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(normalised);
  if (scheme && !SAFE_SCHEMES.has(scheme[1]!.toLowerCase())) return null;
  if (/[\u0000-\u001f\u007f]/.test(normalised)) return null;
  return normalised;
}

/** Text for an XML document (sitemap): the same escapes. */
export const xml = esc;

/** The one layout of the instance's pages outside a published site (sign-in, account, the gateway's errors). */
export { instancePage, PAGE_STYLESHEET, type InstancePage } from './page.ts';
