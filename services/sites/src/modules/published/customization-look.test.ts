import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { orgActors, spaceWithPages, useSitesAndContent } from '../../test-support.ts';
import { contrastRatio, mixOver } from './render/contrast.ts';

/**
 * The customization a reader gets in a published page's HTML, through the published page handler: the header logo,
 * the privacy policy, the colour mode, the corners, pagination and feedback, set on the site and overridden by a site
 * space (`overrideSiteSpaceCustomizationById`).
 */
const ORG = 'org-look';
const { admin } = orgActors(ORG, 'org-elsewhere');
const gateway: Actor = { kind: 'service', service: 'gateway' };
const p = useSitesAndContent('customization-look', { orgAdmin: true, inProcessBus: true });

const open = async (path: string) => {
  const res = await p.sites.call(
    ops.getPublishedSitePage,
    { host: 'quire.test', path, query: {}, cookies: {} },
    gateway,
  );
  expect(res.status, path).toBe(200);
  return res.body;
};

async function publishedSite() {
  const pages = [
    { title: 'Welcome', markdown: 'Hello readers.' },
    { title: 'Setup', markdown: 'Install it.' },
  ];
  const guide = await spaceWithPages(p, { org: ORG, title: 'Guide', as: admin }, pages);
  const reference = await spaceWithPages(p, { org: ORG, title: 'Reference', as: admin }, pages);
  const site = await p.sites.call(
    ops.createSite,
    { organizationId: ORG, title: 'Acme <Docs>', spaces: [guide, reference] },
    admin,
  );
  await p.sites.call(ops.publishSite, { organizationId: ORG, siteId: site.id }, admin);
  const spaces = await p.sites.call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, admin);
  const [first, second] = spaces.items;
  return { siteId: site.id, base: `/sites/${site.basename}`, first: first!, second: second! };
}

describe('the customization on the published pages', () => {
  it("draws the site's logo, privacy link, mode, corners, pagination and feedback, and a site space's overrides", async () => {
    const { siteId, base, second } = await publishedSite();
    // Never set: the reader's system, no logo, no privacy link, previous/next shown, no feedback form (GitBook's default).
    const plain = await open(base);
    expect(plain).toContain('<span>Acme &lt;Docs&gt;</span></a>');
    expect(plain).not.toContain('Privacy policy');
    expect(plain).toContain('class="prev-next"');
    expect(plain).not.toContain('Was this page helpful?');
    expect(plain).not.toContain('color-scheme:');

    await p.sites.call(
      ops.updateSiteCustomizationById,
      {
        organizationId: ORG,
        siteId,
        header: { logo: { light: 'http://quire.test/v1/logo-light.png', dark: 'http://quire.test/v1/logo-dark.png' } },
        privacyPolicy: { url: 'https://example.com/privacy?a=1&b=2' },
        socialPreview: { url: 'https://cdn.example/card.png' },
        themes: { default: 'light', toggeable: false },
        styling: { corners: 'straight', infoColor: { light: '#ffeb3b', dark: '#ffeb3b' } },
        feedback: { enabled: true },
        pagination: { enabled: false },
      },
      admin,
    );
    const site = await open(base);
    expect(site).toContain(
      `<a class="site-title site-title-logo" href="${base}"><picture><img class="logo" src="/v1/logo-light.png" alt="Acme &lt;Docs&gt;" height="32"></picture></a>`,
    );
    expect(site).not.toContain('<span>Acme &lt;Docs&gt;</span>');
    expect(site).toContain(
      '<p class="privacy-policy"><a href="https://example.com/privacy?a=1&amp;b=2">Privacy policy</a></p>',
    );
    // Light only: color-scheme set, the light palette whatever the reader's system, no dark query, no dark logo.
    expect(site).toContain(':root{color-scheme:light;--bg:#ffffff;');
    expect(site).not.toContain('prefers-color-scheme');
    expect(site).not.toContain('logo-dark');
    expect(site).toContain(':root{--radius:0px}');
    // The info colour, a yellow unreadable on white, darkened until its hints' labels read (4.5:1) on their background.
    // (the last one: a light-only page writes the stylesheet's light palette first)
    const [, info, infoBg] = [...site.matchAll(/--info:(#[0-9a-f]{6});--info-bg:(#[0-9a-f]{6});/g)].at(-1) ?? [];
    expect(infoBg).toBe(mixOver('#ffeb3b', '#ffffff', 0.12));
    expect(contrastRatio(info!, infoBg!)).toBeGreaterThanOrEqual(4.5);
    expect(site).toContain('<meta property="og:image" content="https://cdn.example/card.png">');
    expect(site).not.toContain('class="prev-next"');
    expect(site).toContain('<legend>Was this page helpful?</legend>');

    // The second site space shows the site's look until it overrides it (its cached page included).
    const before = await open(`${base}/${second.path}`);
    expect(before).toContain('color-scheme:light');
    expect(before).toContain('<img class="logo" src="/v1/logo-light.png"');

    // The second site space: its own logo (another origin's is not drawn), mode, corners, pagination and feedback.
    await p.sites.call(
      ops.overrideSiteSpaceCustomizationById,
      {
        organizationId: ORG,
        siteId,
        siteSpaceId: second.id,
        header: { logo: { light: 'https://elsewhere.example/logo.png', dark: 'https://elsewhere.example/logo.png' } },
        privacyPolicy: { url: 'https://example.com/space-privacy' },
        themes: { toggeable: true },
        styling: { corners: 'circular' },
        feedback: { enabled: false },
        pagination: { enabled: true },
      },
      admin,
    );
    const space = await open(`${base}/${second.path}`);
    expect(space).not.toContain('elsewhere.example');
    expect(space).toContain('<span>Acme &lt;Docs&gt;</span></a>');
    expect(space).toContain('<a href="https://example.com/space-privacy">Privacy policy</a>');
    expect(space).not.toContain('color-scheme:light');
    expect(space).toContain(':root{--radius:1rem}');
    expect(space).toContain('class="prev-next"');
    expect(space).not.toContain('Was this page helpful?');
    // The site's other pages keep the site's look.
    const again = await open(`${base}/setup`);
    expect(again).toContain('color-scheme:light');
    expect(again).toContain('<legend>Was this page helpful?</legend>');

    // Dark only, on the site: the dark palette and the dark logo always.
    await p.sites.call(
      ops.updateSiteCustomizationById,
      {
        organizationId: ORG,
        siteId,
        header: { logo: { light: 'http://quire.test/v1/logo-light.png', dark: 'http://quire.test/v1/logo-dark.png' } },
        themes: { default: 'dark', toggeable: false },
      },
      admin,
    );
    const dark = await open(base);
    expect(dark).toContain(':root{color-scheme:dark;--bg:#0d1117;');
    expect(dark).toContain('<picture><source srcset="/v1/logo-dark.png"><img class="logo" src="/v1/logo-light.png"');
    expect(dark).not.toContain('prefers-color-scheme');
  }, 60_000);
});
