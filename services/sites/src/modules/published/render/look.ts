import { html, raw, safeUrl, type Html } from '@quire/document/render';
import { mixOver, readableColour, SCHEME_BACKGROUNDS } from './contrast.ts';
import { NO_FONTS, type LookFonts } from './fonts.ts';
import { cornersCss, schemeCss, type ColourScheme, type Corners } from './theme.ts';

/** An image of the customization for light and dark (the same URL twice when it has one only), checked. */
export interface ThemedImage {
  light: string;
  dark: string;
}

/** A link of the header or the footer, its URL already checked (`safeUrl`). */
export interface LookLink {
  title: string;
  href: string;
}

/** A header item: a link, or a menu of links. */
export type HeaderItem =
  | { kind: 'link'; title: string; href: string; style: 'link' | 'button-primary' | 'button-secondary' }
  | { kind: 'menu'; title: string; links: LookLink[] };

/** What a page shows of the site's customization, every value checked: it is only escaped when written. */
export interface SiteLook {
  /** The site's icon: an emoji, or an image (URL paths or URLs of the site's own origins only). */
  icon: { emoji: string } | { light: string; dark: string } | null;
  /** Hex colours only (checked again here: nothing else reaches the CSS). */
  primary: { light: string; dark: string } | null;
  tint: { light: string; dark: string } | null;
  /** The hints' colours set (`styling.infoColor`, `successColor`, `warningColor`, `dangerColor`); hex only. */
  hints: Partial<Record<AnnouncementStyle, { light: string; dark: string }>>;
  headerLinks: HeaderItem[];
  footer: { groups: { title: string; links: LookLink[] }[]; copyright: string | null; trademark: boolean };
  /** The banner on top of every page; `key` names this announcement for a reader's dismissal. */
  announcement: Announcement | null;
  /** The fonts set (bundled ones, or a custom font on the site's own origin); null each: the system fonts. */
  fonts: LookFonts;
  /**
   * The URL path of the stylesheet of those fonts (`<site>/~fonts/{hash}.css`, one per site and font set, cached as
   * immutable); null when no font is set.
   */
  fontSheet: string | null;
  /** The social accounts (`socialAccounts`) shown in the header and in the footer, their URLs checked. */
  social: { header: SocialLink[]; footer: SocialLink[] };
  /** The logos (`header.logo`, `footer.logo`): images on the site's own origins only, as the icon. */
  logo: { header: ThemedImage | null; footer: ThemedImage | null };
  /** Where the header's title and logo lead (`header.primaryLink`, a URL), else the site's home. */
  homeHref: string | null;
  /** The privacy policy's URL (`privacyPolicy.url`), through `safeUrl`: a "Privacy policy" link in the footer. */
  privacyPolicy: string | null;
  /** The image of the pages' link previews (`socialPreview.url`: `og:image`), an absolute http(s) URL. */
  socialPreview: string | null;
  /** The colour mode (`themes`): the reader's system, or one mode only. */
  scheme: ColourScheme;
  corners: Corners;
  /** Previous/next links under a page (`pagination.enabled`). */
  pagination: boolean;
  /** The "Was this page helpful?" form (`feedback.enabled`). */
  feedback: boolean;
}

/** A social account as a link: the platform's name (its text) and the profile's URL. */
export interface SocialLink {
  platform: SocialPlatform;
  label: string;
  handle: string;
  href: string;
}

export type SocialPlatform =
  | 'twitter'
  | 'instagram'
  | 'facebook'
  | 'linkedin'
  | 'github'
  | 'discord'
  | 'slack'
  | 'youtube'
  | 'tiktok'
  | 'reddit'
  | 'bluesky'
  | 'mastodon'
  | 'threads'
  | 'medium';

/** Each platform's name, as the link says it. */
export const SOCIAL_LABELS: Record<SocialPlatform, string> = {
  twitter: 'X (Twitter)',
  instagram: 'Instagram',
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
  github: 'GitHub',
  discord: 'Discord',
  slack: 'Slack',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  reddit: 'Reddit',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  threads: 'Threads',
  medium: 'Medium',
};

const seg = (s: string) => s.split('/').filter(Boolean).map(encodeURIComponent).join('/');

/**
 * The profile URL of a social account: a handle that is an http(s) URL is used as it is (through `safeUrl`), else
 * the platform's profile address is made from it (a leading `@` dropped; Mastodon's `user@server` →
 * `https://server/@user`; LinkedIn's and Reddit's `company/x`, `in/x`, `r/x`, `u/x` kept, a bare name being a
 * company page and a subreddit). Null when nothing usable is left.
 */
export function socialHref(platform: SocialPlatform, handle: string): string | null {
  const h = handle.trim();
  if (/^https?:\/\//i.test(h)) return safeUrl(h);
  const name = h.replace(/^@/, '');
  if (!name || /[\s?#]/.test(name)) return null;
  const one = encodeURIComponent(name);
  switch (platform) {
    case 'twitter':
      return `https://x.com/${one}`;
    case 'instagram':
      return `https://www.instagram.com/${one}`;
    case 'facebook':
      return `https://www.facebook.com/${one}`;
    case 'linkedin':
      return `https://www.linkedin.com/${name.includes('/') ? seg(name) : `company/${one}`}`;
    case 'github':
      return `https://github.com/${seg(name)}`;
    case 'discord':
      return `https://discord.gg/${one}`;
    case 'slack':
      return /^[a-z0-9-]+$/i.test(name) ? `https://${name.toLowerCase()}.slack.com` : null;
    case 'youtube':
      return `https://www.youtube.com/@${one}`;
    case 'tiktok':
      return `https://www.tiktok.com/@${one}`;
    case 'reddit':
      return `https://www.reddit.com/${/^(r|u|user)\//.test(name) ? seg(name) : `r/${one}`}`;
    case 'bluesky':
      return `https://bsky.app/profile/${one}`;
    case 'mastodon': {
      const m = /^([^@/]+)@([a-z0-9.-]+\.[a-z]{2,})$/i.exec(name);
      return m ? `https://${m[2]!.toLowerCase()}/@${encodeURIComponent(m[1]!)}` : null;
    }
    case 'threads':
      return `https://www.threads.net/@${one}`;
    case 'medium':
      return `https://medium.com/@${one}`;
  }
}

export type AnnouncementStyle = 'info' | 'warning' | 'danger' | 'success';

/** An announcement as a page draws it: its message and link title are text, its link already checked. */
export interface Announcement {
  message: string;
  style: AnnouncementStyle;
  link: LookLink | null;
  key: string;
}

export const PLAIN_LOOK: SiteLook = {
  icon: null,
  primary: null,
  tint: null,
  hints: {},
  headerLinks: [],
  footer: { groups: [], copyright: null, trademark: true },
  announcement: null,
  fonts: NO_FONTS,
  fontSheet: null,
  social: { header: [], footer: [] },
  logo: { header: null, footer: null },
  homeHref: null,
  privacyPolicy: null,
  socialPreview: null,
  scheme: 'system',
  corners: 'rounded',
  pagination: true,
  feedback: false,
};

const HEX = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** A themed colour when both are hex colours; null otherwise. */
export function hexPair(
  c: { light?: unknown; dark?: unknown } | undefined | null,
): { light: string; dark: string } | null {
  if (!c || typeof c.light !== 'string' || typeof c.dark !== 'string') return null;
  return HEX.test(c.light) && HEX.test(c.dark) ? { light: c.light, dark: c.dark } : null;
}

/** An emoji as text: its characters, or its code points in hex (`1f389`, `1f1eb-1f1f7`); null when not one. */
export function emojiText(value: string): string | null {
  if (!/^[0-9a-fA-F]{1,6}(?:-[0-9a-fA-F]{1,6})*$/.test(value)) return /[\p{L}\p{N}<>&"']/u.test(value) ? null : value;
  const points = value.split('-').map((h) => Number.parseInt(h, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return null;
  return String.fromCodePoint(...points);
}

/** A link of the customization (`ContentRef`): URL references only, when `safeUrl` lets them through. */
export function refHref(to: { kind?: string; url?: string } | null | undefined): string | null {
  if (to?.kind !== 'url' || typeof to.url !== 'string') return null;
  return safeUrl(to.url);
}

/** The favicon of the look: the icon (an emoji drawn in an SVG data URL, or the image), or none. */
export function lookHead(look: SiteLook): Html {
  const icon = look.icon;
  if (icon && 'emoji' in icon) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${icon.emoji}</text></svg>`;
    return html`<link rel="icon" href="${`data:image/svg+xml,${encodeURIComponent(svg)}`}">`;
  }
  if (icon && look.scheme !== 'system') return html`<link rel="icon" href="${icon[look.scheme]}">`;
  if (icon)
    return html`<link rel="icon" href="${icon.light}" media="(prefers-color-scheme: light)"><link rel="icon" href="${icon.dark}" media="(prefers-color-scheme: dark)">`;
  return html`<link rel="icon" href="data:,">`;
}

/**
 * The colours of the look as CSS custom properties (after the stylesheet, whose defaults they replace): hex colours
 * only, checked again here. The primary colour is kept readable in each scheme (`readableColour`: same hue, lightness
 * moved until it reaches 4.5:1 against the scheme's backgrounds, which also holds for a button's text on it). The fonts
 * are a link to their stylesheet (`fontSheet`), never inline: the page stays small and the sheet is cached once.
 */
export function lookStyle(look: SiteLook): Html {
  const hex = (c: string) => (HEX.test(c) ? c : null);
  const vars = (mode: 'light' | 'dark') => {
    const set = look.primary ? hex(look.primary[mode]) : null;
    const primary = set ? readableColour(set, mode) : null;
    const tint = look.tint ? hex(look.tint[mode]) : null;
    return (
      (primary ? `--accent:${primary};--current:${primary};` : '') +
      (tint ? `--tint:${tint};` : '') +
      hintVars(look, mode)
    );
  };
  const css =
    schemeCss(look.scheme, vars('light'), vars('dark')) +
    cornersCss(look.corners) +
    (look.logo.header || look.logo.footer ? LOGO_CSS : '');
  const fonts = look.fontSheet ? html`<link rel="stylesheet" href="${look.fontSheet}">` : html``;
  if (!css) return fonts;
  return html`<style>${raw(css)}</style>${fonts}`;
}

/** How much of a hint's colour its background takes, over the page's background, per scheme. */
const HINT_BG_SHARE = { light: 0.12, dark: 0.22 } as const;

/**
 * The custom properties of the hints' colours set (and the announcement's, which uses them): each colour's
 * background is the colour over the page's (`mixOver`, opaque), and the colour itself, the hint's label and edge, is
 * kept readable (4.5:1) on that background and on the page's (`readableColour`). The hint's text stays the page's.
 */
function hintVars(look: SiteLook, mode: 'light' | 'dark'): string {
  let out = '';
  for (const [kind, pair] of Object.entries(look.hints)) {
    const set = pair && HEX.test(pair[mode]) ? pair[mode] : null;
    if (!set) continue;
    const page = SCHEME_BACKGROUNDS[mode][0]!;
    const bg = mixOver(set, page, HINT_BG_SHARE[mode]);
    out += `--${kind}:${readableColour(set, mode, [page, bg])};--${kind}-bg:${bg};`;
  }
  return out;
}

/** The logos' size: 2rem high (the header's row), as wide as their image allows up to a share of the row. */
const LOGO_CSS =
  '.site-title-logo{flex:none}.logo{display:block;height:2rem;width:auto;max-width:min(14rem,45vw);object-fit:contain;object-position:left center}.footer-logo{display:flex;justify-content:center;margin:0 0 1rem}.footer-logo .logo{object-position:center}';

/**
 * A logo: the light image, the dark one as a `<source>` for `prefers-color-scheme: dark` (a page in one mode keeps
 * the one it needs), `alt` the site's title (the logo stands for it). Commas of a URL are escaped for `srcset`.
 */
export function logoPicture(logo: ThemedImage, alt: string): Html {
  const img = html`<img class="logo" src="${logo.light}" alt="${alt}" height="32">`;
  if (logo.dark === logo.light) return img;
  return html`<picture><source srcset="${logo.dark.replaceAll(',', '%2C')}" media="(prefers-color-scheme: dark)">${img}</picture>`;
}

/**
 * The inside of the header's title link: the header logo (its `alt` the title, which it replaces, as on GitBook),
 * else the icon (or the title's initial) and the title.
 */
export function lookSiteTitle(look: SiteLook, siteTitle: string): Html {
  if (look.logo.header) return logoPicture(look.logo.header, siteTitle);
  return html`${lookLogo(look, siteTitle)}<span>${siteTitle}</span>`;
}

/** Where the gateway serves the bundled fonts' files (`/_quire/site/fonts/{slug}/{file}`). */
export const FONT_BASE = '/_quire/site/fonts';

/** The social accounts as a list of links, each named by its platform (the handle in its title). */
export function lookSocial(links: SocialLink[], where: 'header' | 'footer'): Html {
  if (!links.length) return html``;
  return html`<nav class="${`social social-${where}`}" aria-label="${where === 'header' ? 'Social accounts' : 'Social accounts (footer)'}"><ul>${links.map(
    (l) =>
      html`<li><a class="${`social-link social-${l.platform}`}" href="${l.href}" rel="me noopener" title="${l.handle}">${l.label}</a></li>`,
  )}</ul></nav>`;
}

/** The logo beside the site title: the icon, else the title's initial. */
export function lookLogo(look: SiteLook, siteTitle: string): Html {
  const icon = look.icon;
  if (icon && 'emoji' in icon)
    return html`<span class="site-logo site-logo-emoji" aria-hidden="true">${icon.emoji}</span>`;
  if (icon) return html`<img class="site-logo site-logo-image" src="${icon.light}" alt="" width="32" height="32">`;
  const initial = [...siteTitle.trim()][0]?.toUpperCase() ?? 'Q';
  return html`<span class="site-logo" aria-hidden="true">${initial}</span>`;
}

/** The header's links: a link, a button-styled link, or a menu (`<details>`: it opens without JavaScript). */
export function lookHeaderLinks(items: HeaderItem[]): Html {
  if (!items.length) return html``;
  return html`<nav class="header-links" aria-label="Site links"><ul>${items.map((item) =>
    item.kind === 'link'
      ? html`<li><a class="${`header-link ${item.style}`}" href="${item.href}">${item.title}</a></li>`
      : html`<li><details class="menu"><summary>${item.title}</summary><ul class="menu-list">${item.links.map(
          (l) => html`<li><a href="${l.href}">${l.title}</a></li>`,
        )}</ul></details></li>`,
  )}</ul></nav>`;
}

/**
 * The footer: the footer logo, the link groups, the social accounts, the privacy policy's link, the copyright, and
 * "Published with Quire" unless turned off (`trademark`).
 */
export function lookFooter(look: SiteLook, siteTitle = ''): Html {
  const { groups, copyright, trademark } = look.footer;
  const columns = groups.length
    ? html`<div class="footer-groups">${groups.map(
        (g) =>
          html`<nav class="footer-group" aria-label="${g.title}"><p class="footer-group-title">${g.title}</p><ul>${g.links.map(
            (l) => html`<li><a href="${l.href}">${l.title}</a></li>`,
          )}</ul></nav>`,
      )}</div>`
    : html``;
  const logo =
    look.logo.footer && siteTitle
      ? html`<p class="footer-logo">${logoPicture(look.logo.footer, siteTitle)}</p>`
      : html``;
  const privacy = look.privacyPolicy
    ? html`<p class="privacy-policy"><a href="${look.privacyPolicy}">Privacy policy</a></p>`
    : html``;
  return html`<footer class="site-footer">${logo}${columns}${lookSocial(look.social.footer, 'footer')}${privacy}${copyright ? html`<p class="copyright">${copyright}</p>` : html``}${
    trademark ? html`<p>Published with Quire</p>` : html``
  }</footer>`;
}

const ANNOUNCEMENT_LABEL: Record<AnnouncementStyle, string> = {
  info: 'Info',
  warning: 'Warning',
  danger: 'Important',
  success: 'Success',
};

/**
 * The announcement banner, as GitBook draws it: its style named in words as well as colours, the message, the link.
 * Readers may dismiss it unless its style is `danger`: the site's script shows the button and keeps the dismissal
 * (without JavaScript the banner stays).
 */
export function lookAnnouncement(a: Announcement | null): Html {
  if (!a) return html``;
  const link = a.link ? html` <a class="announcement-link" href="${a.link.href}">${a.link.title}</a>` : html``;
  const dismiss =
    a.style === 'danger'
      ? html``
      : html`<button type="button" class="announcement-dismiss" hidden>Dismiss<span class="sr-only"> the announcement</span></button>`;
  return html`<section class="${`announcement announcement-${a.style}`}" aria-label="Announcement" data-announcement="${a.key}"><p><strong class="announcement-label">${ANNOUNCEMENT_LABEL[a.style]}:</strong> ${a.message}${link}</p>${dismiss}</section>`;
}
