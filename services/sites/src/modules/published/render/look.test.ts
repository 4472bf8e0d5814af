import { describe, expect, it } from 'vitest';
import { html } from '@quire/document/render';
import { renderShell, type Shell } from './layout.ts';
import { contrastRatio, mixOver, readableColour } from './contrast.ts';
import {
  emojiText,
  hexPair,
  lookHead,
  lookLogo,
  lookStyle,
  PLAIN_LOOK,
  refHref,
  socialHref,
  type SiteLook,
} from './look.ts';
import { fontCss, fontFiles, fontSheet, MONOSPACE_FONTS, TEXT_FONTS, type LookFonts } from './fonts.ts';

const shell = (over: Partial<Shell>): string =>
  renderShell({
    siteTitle: 'Docs',
    siteHome: '/sites/docs',
    title: 'Home | Docs',
    index: true,
    sections: [],
    variants: [],
    sidebar: html``,
    main: html`<p>Body</p>`,
    outline: html``,
    searchAction: '/sites/docs/~search',
    math: false,
    ...over,
  }).value;

describe('the look of a customized site', () => {
  it('reads emojis as characters or hex code points, and nothing else', () => {
    expect(emojiText('🚀')).toBe('🚀');
    expect(emojiText('1f680')).toBe('🚀');
    expect(emojiText('1f1eb-1f1f7')).toBe('🇫🇷');
    expect(emojiText('110000')).toBeNull();
    expect(emojiText('<b>')).toBeNull();
  });

  it('lets only hex colours reach the CSS, and only safe URLs reach a link', () => {
    expect(hexPair({ light: '#0B6E4F', dark: '#fff' })).toEqual({ light: '#0B6E4F', dark: '#fff' });
    expect(hexPair({ light: 'red;}body{display:none', dark: '#fff' })).toBeNull();
    expect(hexPair({ light: '#fff' })).toBeNull();
    expect(refHref({ kind: 'url', url: 'javascript:alert(1)' })).toBeNull();
    expect(refHref({ kind: 'url', url: 'https://example.com/a?b=1' })).toBe('https://example.com/a?b=1');
    expect(refHref({ kind: 'page', url: 'https://example.com' })).toBeNull();
  });

  it('writes the favicon and the colours into the head, and the icon into the header', () => {
    const look: SiteLook = {
      ...PLAIN_LOOK,
      icon: { emoji: '🚀' },
      primary: { light: '#0B6E4F', dark: '#6FD3A8' },
      tint: { light: '#123456', dark: '#654321' },
    };
    const head = lookHead(look).value + lookStyle(look).value;
    expect(head).toContain(`<link rel="icon" href="data:image/svg+xml,${encodeURIComponent('<svg')}`);
    expect(head).toContain(':root{--accent:#0B6E4F;--current:#0B6E4F;--tint:#123456;}');
    expect(head).toContain(
      '@media (prefers-color-scheme: dark){:root{--accent:#6FD3A8;--current:#6FD3A8;--tint:#654321;}}',
    );
    expect(lookLogo(look, 'Docs').value).toBe('<span class="site-logo site-logo-emoji" aria-hidden="true">🚀</span>');
    const image: SiteLook = { ...PLAIN_LOOK, icon: { light: '/v1/x?a=1&b="2"', dark: '/v1/y' } };
    expect(lookHead(image).value).toContain('<link rel="icon" href="/v1/x?a=1&amp;b=&quot;2&quot;"');
    expect(lookLogo(image, 'Docs').value).toContain('src="/v1/x?a=1&amp;b=&quot;2&quot;"');
    expect(lookHead(PLAIN_LOOK).value).toBe('<link rel="icon" href="data:,">');
    expect(lookStyle(PLAIN_LOOK).value).toBe('');
    // The style comes after the stylesheet (its defaults are replaced) and holds hex colours only.
    const page = shell({ look });
    expect(page.indexOf('<style>:root{--accent:#0B6E4F')).toBeGreaterThan(page.indexOf('rel="stylesheet"'));
    const forged = { ...PLAIN_LOOK, primary: { light: 'red;}body{x:y', dark: '#000' } };
    // Black cannot be read on the dark background: it is drawn lighter (grey), readable.
    const black = readableColour('#000', 'dark');
    expect(contrastRatio(black, '#0d1117')).toBeGreaterThanOrEqual(4.5);
    expect(lookStyle(forged).value).toBe(
      `<style>:root{}@media (prefers-color-scheme: dark){:root{--accent:${black};--current:${black};}}</style>`,
    );
    expect(lookLogo(PLAIN_LOOK, 'docs').value).toContain('>D</span>');
  });

  it('draws a section group as a <details> menu of its sections, the current one marked', () => {
    const page = shell({
      sections: [
        { title: 'Intro', href: '/sites/docs', current: false },
        {
          group: true,
          title: 'Learn <more>',
          current: true,
          items: [
            { title: 'Guides', href: '/sites/docs/guides', current: true },
            {
              group: true,
              title: 'Deep',
              current: false,
              items: [{ title: 'API', href: '/sites/docs/api', current: false }],
            },
          ],
        },
      ],
    });
    expect(page).toContain(
      '<li class="section-group current"><details><summary>Learn &lt;more&gt;<span class="sr-only"> (current)</span></summary><ul class="group-menu">',
    );
    expect(page).toContain('<li><a href="/sites/docs/guides" aria-current="page">Guides</a></li>');
    expect(page).toContain(
      '<li class="subgroup"><span class="subgroup-title">Deep</span><ul><li><a href="/sites/docs/api">API</a></li></ul></li>',
    );
  });

  it('escapes every header and footer value, and leaves the trademark out when asked', () => {
    const page = shell({
      look: {
        ...PLAIN_LOOK,
        headerLinks: [
          {
            kind: 'link',
            title: '<img src=x onerror=alert(1)>',
            href: 'https://example.com/"x"',
            style: 'button-primary',
          },
          { kind: 'menu', title: 'More', links: [{ title: 'Blog & news', href: '/blog' }] },
        ],
        footer: {
          groups: [{ title: 'Company', links: [{ title: 'About', href: '/about' }] }],
          copyright: '© <Ex>',
          trademark: false,
        },
      },
    });
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('href="https://example.com/&quot;x&quot;"');
    expect(page).toContain('<details class="menu"><summary>More</summary>');
    expect(page).toContain('Blog &amp; news');
    expect(page).toContain('<p class="copyright">© &lt;Ex&gt;</p>');
    expect(page).not.toContain('Published with Quire');
    expect(page).not.toContain('<img src=x');
  });
});

describe("the hints' colours", () => {
  it('draws each colour set over the page as its background, the colour kept readable on both, per scheme', () => {
    const look: SiteLook = {
      ...PLAIN_LOOK,
      hints: { danger: { light: '#ff8a80', dark: '#b71c1c' }, success: { light: '#116329', dark: '#56d364' } },
    };
    const css = lookStyle(look).value;
    const vars = (scope: string) =>
      Object.fromEntries([...scope.matchAll(/--([a-z-]+):(#[0-9a-f]{6});/g)].map((m) => [m[1], m[2]]));
    const [light, dark] = css.split('@media (prefers-color-scheme: dark)') as [string, string];
    for (const [scheme, v, page] of [
      ['light', vars(light), '#ffffff'],
      ['dark', vars(dark), '#0d1117'],
    ] as const) {
      for (const kind of ['danger', 'success']) {
        expect(v[`${kind}-bg`], `${scheme} ${kind}`).toMatch(/^#/);
        expect(contrastRatio(v[kind]!, v[`${kind}-bg`]!)).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(v[kind]!, page)).toBeGreaterThanOrEqual(4.5);
      }
      expect(v.info, "a colour not set keeps the stylesheet's").toBeUndefined();
    }
    // readable already: unchanged; too light on white: darkened
    expect(vars(light).success).toBe('#116329');
    expect(vars(light).danger).not.toBe('#ff8a80');
    expect(vars(light)['danger-bg']).toBe(mixOver('#ff8a80', '#ffffff', 0.12));
  });

  it('leaves out a colour that is not a hex colour', () => {
    const forged: SiteLook = { ...PLAIN_LOOK, hints: { info: { light: 'red;}body{x:y', dark: '#000' } } };
    const [light, dark] = lookStyle(forged).value.split('@media (prefers-color-scheme: dark)') as [string, string];
    expect(light + dark).not.toContain('body{x:y');
    expect(light).not.toContain('--info:');
    expect(dark).toContain('--info:');
  });
});

describe('the search box', () => {
  it('is shown on a site page, and there but hidden on a page outside any site', () => {
    expect(shell({})).toContain('<form class="search-form" role="search" method="get" action="/sites/docs/~search">');
    const bare = shell({ searchAction: '/', searchHidden: true });
    expect(bare).toContain('<form hidden class="search-form" role="search" method="get" action="/">');
    expect(bare).not.toContain('<form class="search-form"');
  });
});

describe('the announcement', () => {
  const announcement = {
    message: 'Read <this> & "that"',
    style: 'warning' as const,
    link: { title: 'Release <notes>', href: 'https://example.com/?a=1&b="2"' },
    key: 'abc123',
  };

  it('is drawn on top of the page, its style in words, message and link escaped, dismissable by the script', () => {
    const page = shell({ look: { ...PLAIN_LOOK, announcement } });
    expect(page).toContain(
      '<section class="announcement announcement-warning" aria-label="Announcement" data-announcement="abc123"><p><strong class="announcement-label">Warning:</strong> Read &lt;this&gt; &amp; &quot;that&quot; <a class="announcement-link" href="https://example.com/?a=1&amp;b=&quot;2&quot;">Release &lt;notes&gt;</a></p><button type="button" class="announcement-dismiss" hidden>Dismiss<span class="sr-only"> the announcement</span></button></section>',
    );
    expect(page.indexOf('class="announcement ')).toBeLessThan(page.indexOf('<header class="site-header">'));
    expect(page.indexOf('class="skip-link"')).toBeLessThan(page.indexOf('class="announcement '));
    expect(page).not.toContain('<this>');
  });

  it('has no link when none is set, no dismiss button when it is a danger, and is absent when there is none', () => {
    const danger = shell({ look: { ...PLAIN_LOOK, announcement: { ...announcement, style: 'danger', link: null } } });
    expect(danger).toContain('<strong class="announcement-label">Important:</strong> Read &lt;this&gt;');
    expect(danger).not.toContain('announcement-link');
    expect(danger).not.toContain('announcement-dismiss');
    expect(shell({})).not.toContain('class="announcement');
  });
});

describe('the fonts of the look', () => {
  it('declares the bundled files of the fonts set, from the gateway only, and draws text, headings and code', () => {
    const fonts: LookFonts = {
      text: { kind: 'bundled', font: TEXT_FONTS.Lato },
      heading: { kind: 'bundled', font: TEXT_FONTS.RobotoSlab },
      mono: { kind: 'bundled', font: MONOSPACE_FONTS.JetBrainsMono },
    };
    const css = fontCss(fonts, '/_quire/site/fonts');
    expect(css).toContain(
      '@font-face{font-family:"Lato";font-style:normal;font-display:swap;font-weight:700;src:url("/_quire/site/fonts/lato/lato-latin-700-normal.woff2") format("woff2")',
    );
    expect(css).toContain('url("/_quire/site/fonts/roboto-slab/roboto-slab-latin-ext-wght-normal.woff2")');
    expect(css).toContain('body,button,input,select,textarea{font-family:"Lato", system-ui');
    expect(css).toContain('h1,h2,h3,h4,h5,h6,.site-title{font-family:"Roboto Slab", Georgia');
    expect(css).toContain('code,kbd,pre,samp{font-family:"JetBrains Mono", ui-monospace');
    expect(css).not.toMatch(/url\("?https?:/);
  });

  it("links the font stylesheet after the pages' stylesheet, and inlines no @font-face", () => {
    const page = shell({ look: { ...PLAIN_LOOK, fontSheet: '/sites/docs/~fonts/0123456789abcdef0123.css' } });
    expect(page).toContain('<link rel="stylesheet" href="/sites/docs/~fonts/0123456789abcdef0123.css">');
    expect(page).not.toContain('@font-face');
    expect(page.indexOf('site-v1.css')).toBeLessThan(page.indexOf('~fonts/'));
  });

  it('names a font set by the hash of its CSS: another set, another name', () => {
    const lato: LookFonts = { text: { kind: 'bundled', font: TEXT_FONTS.Lato }, heading: null, mono: null };
    const inter: LookFonts = { text: { kind: 'bundled', font: TEXT_FONTS.Inter }, heading: null, mono: null };
    expect(fontSheet(lato, '/f')?.hash).toMatch(/^[0-9a-f]{20}$/);
    expect(fontSheet(lato, '/f')?.hash).toBe(fontSheet(lato, '/f')?.hash);
    expect(fontSheet(lato, '/f')?.hash).not.toBe(fontSheet(inter, '/f')?.hash);
    expect(fontSheet({ text: null, heading: null, mono: null }, '/f')).toBeNull();
  });

  it('declares nothing when no font is set, and a font once when text and headings share it', () => {
    expect(fontCss({ text: null, heading: null, mono: null }, '/f')).toBe('');
    const inter = { kind: 'bundled', font: TEXT_FONTS.Inter } as const;
    const css = fontCss({ text: inter, heading: inter, mono: null }, '/f');
    expect(css.match(/@font-face/g)).toHaveLength(fontFiles(TEXT_FONTS.Inter).length);
    expect(fontFiles(TEXT_FONTS.ABCFavorit)).toEqual(fontFiles(TEXT_FONTS.Inter));
  });

  it("escapes a custom font's family and URLs so nothing leaves the CSS string or the <style>", () => {
    const css = fontCss(
      {
        text: {
          kind: 'custom',
          family: 'Evil"}</style><script>alert(1)</script>',
          faces: [{ weight: 400, sources: [{ url: '/files/a").woff2', format: 'woff2' }] }],
          fallback: 'system-ui, sans-serif',
        },
        heading: null,
        mono: null,
      },
      '/f',
    );
    expect(css).not.toContain('</style><script>');
    expect(css).not.toContain('"}');
    expect(css).toContain('font-family:"Evil\\22 }\\3c /style\\3e \\3c script\\3e alert(1)\\3c /script\\3e "');
    expect(css).toContain('src:url("/files/a\\22 ).woff2") format("woff2")');
  });
});

describe('the social accounts', () => {
  it("makes each platform's profile URL from a handle, keeps an http(s) URL, and refuses what is not one", () => {
    expect(socialHref('github', '@quire-docs')).toBe('https://github.com/quire-docs');
    expect(socialHref('twitter', 'quire')).toBe('https://x.com/quire');
    expect(socialHref('mastodon', '@ada@fosstodon.org')).toBe('https://fosstodon.org/@ada');
    expect(socialHref('mastodon', 'ada')).toBeNull();
    expect(socialHref('linkedin', 'in/ada')).toBe('https://www.linkedin.com/in/ada');
    expect(socialHref('linkedin', 'quire')).toBe('https://www.linkedin.com/company/quire');
    expect(socialHref('reddit', 'r/docs')).toBe('https://www.reddit.com/r/docs');
    expect(socialHref('slack', 'quire-team')).toBe('https://quire-team.slack.com');
    expect(socialHref('slack', 'a.b')).toBeNull();
    expect(socialHref('youtube', '@Quire')).toBe('https://www.youtube.com/@Quire');
    expect(socialHref('discord', 'https://discord.gg/abc')).toBe('https://discord.gg/abc');
    expect(socialHref('github', 'javascript:alert(1)')).toBe('https://github.com/javascript%3Aalert(1)');
    expect(socialHref('twitter', 'a b')).toBeNull();
    expect(socialHref('twitter', 'x?y')).toBeNull();
  });

  it('draws the header and footer accounts as links named by their platform, the handle escaped', () => {
    const gh = { platform: 'github', label: 'GitHub', handle: '<quire>', href: 'https://github.com/quire' } as const;
    const x = { platform: 'twitter', label: 'X (Twitter)', handle: 'quire', href: 'https://x.com/quire' } as const;
    const page = shell({ look: { ...PLAIN_LOOK, social: { header: [gh], footer: [gh, x] } } });
    expect(page).toContain(
      '<nav class="social social-header" aria-label="Social accounts"><ul><li><a class="social-link social-github" href="https://github.com/quire" rel="me noopener" title="&lt;quire&gt;">GitHub</a></li></ul></nav>',
    );
    const footer = page.slice(page.indexOf('<footer'));
    expect(footer).toContain('aria-label="Social accounts (footer)"');
    expect(footer).toContain('>X (Twitter)</a>');
    expect(shell({ look: PLAIN_LOOK })).not.toContain('class="social');
  });
});

describe('the logos, the privacy policy and the colour mode', () => {
  const logo = { light: '/v1/logo-light.png?a=1&b="2"', dark: '/v1/logo,dark.png' };

  it('shows the header logo in place of the icon and the title, its alt the title, dark under prefers-color-scheme', () => {
    const page = shell({
      siteTitle: 'Docs <&>',
      look: { ...PLAIN_LOOK, icon: { emoji: '🚀' }, logo: { header: logo, footer: null } },
    });
    expect(page).toContain(
      '<a class="site-title site-title-logo" href="/sites/docs"><picture><source srcset="/v1/logo%2Cdark.png" media="(prefers-color-scheme: dark)"><img class="logo" src="/v1/logo-light.png?a=1&amp;b=&quot;2&quot;" alt="Docs &lt;&amp;&gt;" height="32"></picture></a>',
    );
    expect(page).not.toContain('site-logo-emoji');
    expect(page).toContain('.logo{display:block;height:2rem');
    // One image for both modes: no <picture>.
    const single = shell({
      look: { ...PLAIN_LOOK, logo: { header: { light: '/v1/a.png', dark: '/v1/a.png' }, footer: null } },
    });
    expect(single).toContain('<img class="logo" src="/v1/a.png" alt="Docs" height="32"></a>');
    // Without a logo: the icon (or initial) and the title, as before.
    expect(shell({})).toContain(
      '<a class="site-title" href="/sites/docs"><span class="site-logo" aria-hidden="true">D</span><span>Docs</span></a>',
    );
  });

  it('links the title and logo to the primary link when there is one', () => {
    const page = shell({ look: { ...PLAIN_LOOK, homeHref: 'https://example.com/?a=1&b=2' } });
    expect(page).toContain('<a class="site-title" href="https://example.com/?a=1&amp;b=2">');
  });

  it('draws the footer logo and a "Privacy policy" link in the footer', () => {
    const page = shell({
      look: {
        ...PLAIN_LOOK,
        logo: { header: null, footer: logo },
        privacyPolicy: 'https://example.com/privacy?x="1"',
        footer: { groups: [], copyright: '© Ex', trademark: true },
      },
    });
    const footer = page.slice(page.indexOf('<footer'));
    expect(footer).toMatch(
      /^<footer class="site-footer"><p class="footer-logo"><picture><source srcset="\/v1\/logo%2Cdark.png"/,
    );
    expect(footer).toContain('alt="Docs"');
    expect(footer).toContain(
      '<p class="privacy-policy"><a href="https://example.com/privacy?x=&quot;1&quot;">Privacy policy</a></p><p class="copyright">© Ex</p>',
    );
    expect(shell({})).not.toContain('Privacy policy');
  });

  it('draws a page in one mode only when readers may not switch: no dark query, its images and favicon', () => {
    const look: SiteLook = {
      ...PLAIN_LOOK,
      icon: { light: '/v1/icon-light.png', dark: '/v1/icon-dark.png' },
      primary: { light: '#0B6E4F', dark: '#6FD3A8' },
      logo: { header: logo, footer: null },
    };
    const light = shell({ look: { ...look, scheme: 'light' } });
    expect(light).not.toContain('prefers-color-scheme');
    expect(light).toContain('<link rel="icon" href="/v1/icon-light.png">');
    expect(light).toContain(':root{color-scheme:light;--bg:#ffffff;');
    expect(light).toContain('<picture><img class="logo" src="/v1/logo-light.png');
    const dark = shell({ look: { ...look, scheme: 'dark' } });
    expect(dark).not.toContain('prefers-color-scheme');
    expect(dark).toContain('<link rel="icon" href="/v1/icon-dark.png">');
    expect(dark).toContain(':root{color-scheme:dark;--bg:#0d1117;');
    expect(dark).toContain('--accent:#6FD3A8;');
    expect(dark).toContain('<picture><source srcset="/v1/logo%2Cdark.png"><img class="logo"');
    // Following the reader's system: both, by media query.
    const system = shell({ look });
    expect(system).toContain('@media (prefers-color-scheme: dark){:root{--accent:#6FD3A8;');
    expect(system).toContain('<source srcset="/v1/logo%2Cdark.png" media="(prefers-color-scheme: dark)">');
  });

  it("names the social preview image in the page's link-preview metadata", () => {
    const page = shell({ look: { ...PLAIN_LOOK, socialPreview: 'https://cdn.example/card.png?a=1&b=2' } });
    expect(page).toContain('<meta property="og:image" content="https://cdn.example/card.png?a=1&amp;b=2">');
    expect(page).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(shell({})).not.toContain('og:image');
    expect(shell({})).toContain('<meta name="twitter:card" content="summary">');
  });

  it('writes the corners after the stylesheet, nothing for the default', () => {
    expect(shell({ look: { ...PLAIN_LOOK, corners: 'straight' } })).toContain('<style>:root{--radius:0px}');
    expect(shell({})).not.toContain('<style>');
  });
});
