import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type Customization, type CustomizationInput, type Site, settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { SelectField } from './common.tsx';
import {
  long,
  MONO_FONTS,
  type MonoFont,
  type SocialAccount,
  TEXT_FONTS,
  type TextFont,
  THEMES,
  type Theme,
} from './customize.ts';
import { CustomFontList } from './CustomFontList.tsx';
import { CustomFontUpload } from './CustomFontUpload.tsx';
import { type CustomFont, definitionOf, fontApi } from './fonts-api.ts';
import { type AIFields, AISettings, SocialAccounts } from './SiteSocialAI.tsx';
import { SiteSpaceOverrides } from './SiteSpaceOverrides.tsx';
import {
  type Announcement,
  AnnouncementFields,
  type Footer,
  FooterFields,
  type HeaderItem,
  HeaderLinks,
} from './SiteLinks.tsx';

type Mode = Customization['themes']['default'];
/** A font of the form: a default font, or `font:{id}`, a custom font (of the organization, or as the site has it). */
type FontChoice<T extends string> = T | `font:${string}`;
const MODES: [Mode, string][] = [
  ['system', "The visitor's system setting"],
  ['light', 'Light'],
  ['dark', 'Dark'],
];

/** The fields this form edits, as strings (the form's state). */
interface Fields {
  title: string;
  theme: Theme;
  light: string;
  dark: string;
  mode: Mode;
  toggeable: boolean;
  logo: string;
  emoji: string;
  /** The privacy policy's URL; empty: none. */
  privacy: string;
  headerLinks: HeaderItem[];
  footer: Footer;
  /** An empty message: no announcement. */
  announcement: Announcement;
  font: FontChoice<TextFont>;
  /** Empty: the text's font. */
  headingFont: FontChoice<TextFont> | '';
  monoFont: FontChoice<MonoFont>;
  social: SocialAccount[];
  ai: AIFields;
}

type Definition = { id: string; fontFamily: string };
const isDefinition = (f: unknown): f is Definition => !!f && typeof f === 'object' && 'fontFamily' in f && 'id' in f;
const choice = <T extends string>(f: T | object | null | undefined): FontChoice<T> | '' =>
  f == null ? '' : typeof f === 'string' ? f : isDefinition(f) ? `font:${f.id}` : '';
/**
 * The font a choice saves: the default font chosen, or the custom font chosen — the organization's, as it is now
 * (its faces' files on this instance), else the one the site has.
 */
function fontOf<T extends string, F>(chosen: FontChoice<T>, was: F, custom: CustomFont[]): T | F {
  if (!chosen.startsWith('font:')) return chosen as T;
  const font = custom.find((c) => `font:${c.id}` === chosen);
  return font ? (definitionOf(font) as F) : was;
}
/** The options of a font select: the site's custom font, the organization's custom fonts, the default fonts. */
function fontOptions<T extends string>(fonts: [T, string][], current: unknown, custom: CustomFont[]) {
  const own: [FontChoice<T>, string][] = custom.map((c) => [`font:${c.id}`, `${c.fontFamily} (custom)`]);
  const site: [FontChoice<T>, string][] =
    isDefinition(current) && !custom.some((c) => c.id === current.id)
      ? [[`font:${current.id}`, `${current.fontFamily} (custom)`]]
      : [];
  return [...site, ...own, ...fonts];
}

const fieldsOf = (c: Customization): Fields => ({
  title: c.title ?? '',
  theme: c.styling.theme,
  light: c.styling.primaryColor.light,
  dark: c.styling.primaryColor.dark,
  mode: c.themes.default,
  toggeable: c.themes.toggeable,
  logo: c.header.logo?.light ?? '',
  emoji: 'emoji' in c.favicon ? c.favicon.emoji : '',
  privacy: c.privacyPolicy.url ?? '',
  headerLinks: c.header.links,
  footer: c.footer,
  announcement: c.announcement ?? { enabled: false, message: '', style: 'info' },
  font: choice<TextFont>(c.styling.font) || 'Inter',
  headingFont: choice<TextFont>(c.styling.headingFont),
  monoFont: choice<MonoFont>(c.styling.monospaceFont) || 'IBMPlexMono',
  social: c.socialAccounts,
  ai: {
    mode: c.ai.mode,
    greeting: c.ai.greeting ?? '',
    suggestions: [0, 1, 2, 3, 4].map((i) => c.ai.suggestions?.[i] ?? ''),
    instructions: c.ai.instructions ?? '',
  },
});

const FONT_FIELDS = ['font', 'headingFont', 'monoFont'] as const;
/**
 * The form after a custom font was deleted and the customization read again: the user's unsaved edits kept, a font
 * field that chose the deleted font takes what the site has now (the API took the font out of it).
 */
function withoutFont(old: Fields, fresh: Fields, deleted: string): Fields {
  const next = { ...old };
  for (const k of FONT_FIELDS) if (old[k] === `font:${deleted}`) Object.assign(next, { [k]: fresh[k] });
  return next;
}

/**
 * The body of `updateSiteCustomizationById` (a full replacement): what the site has, with this form's fields.
 * The fields the form does not show are sent back as they are.
 */
function bodyOf(c: Customization, f: Fields, custom: CustomFont[]): CustomizationInput {
  const { updatedAt: _, title: __, announcement: ___, ...rest } = c;
  const logo = f.logo.trim();
  const { logo: _logo, ...kept } = c.header;
  const header = { ...kept, links: f.headerLinks };
  const { copyright, ...footer } = f.footer;
  const message = f.announcement.message.trim();
  const keepIcon = 'icon' in c.favicon && !f.emoji.trim();
  const greeting = f.ai.greeting.trim();
  const instructions = f.ai.instructions.trim();
  const suggestions = f.ai.suggestions.map((q) => q.trim()).filter(Boolean);
  const { greeting: _g, suggestions: _s, instructions: _i, ...ai } = c.ai;
  return {
    ...rest,
    ...(f.title.trim() ? { title: f.title.trim() } : {}),
    styling: {
      ...c.styling,
      theme: f.theme,
      primaryColor: { light: f.light, dark: f.dark },
      font: fontOf<TextFont, typeof c.styling.font>(f.font, c.styling.font, custom),
      headingFont: f.headingFont
        ? fontOf<TextFont, typeof c.styling.headingFont>(f.headingFont, c.styling.headingFont, custom)
        : null,
      monospaceFont: fontOf<MonoFont, typeof c.styling.monospaceFont>(f.monoFont, c.styling.monospaceFont, custom),
    },
    socialAccounts: f.social.map((a) => ({ ...a, handle: a.handle.trim() })).filter((a) => a.handle),
    ai: {
      ...ai,
      mode: f.ai.mode,
      ...(greeting ? { greeting } : {}),
      ...(suggestions.length ? { suggestions } : {}),
      ...(instructions ? { instructions } : {}),
    },
    themes: { default: f.mode, toggeable: f.toggeable },
    privacyPolicy: f.privacy.trim() ? { url: f.privacy.trim() } : {},
    header: logo ? { ...header, logo: { light: logo, dark: logo } } : header,
    favicon: f.emoji.trim() ? { emoji: f.emoji.trim() } : keepIcon ? c.favicon : {},
    footer: copyright?.trim() ? { ...footer, copyright: copyright.trim() } : footer,
    ...(message ? { announcement: { ...f.announcement, message } } : {}),
  };
}

/**
 * A site's customization (title, theme, colour, fonts, light/dark, logo, icon, privacy policy, announcement, header
 * links, footer, social accounts, AI), with the published site beside it.
 */
export function SiteCustomization({ org, site }: { org: string; site: Site }) {
  const loaded = useLoad(() => settingsApi.customization(org, site.id), `customization:${site.id}`);
  const [f, setF] = useState<Fields>();
  const [done, setDone] = useState('');
  const [preview, setPreview] = useState(() => Date.now());
  const action = useAction();
  const id = useId();
  const orgFonts = useLoad(() => fontApi.list(org), `fonts:${org}`);
  const [uploaded, setUploaded] = useState<CustomFont[]>([]);
  const custom = [...(orgFonts.data ?? []), ...uploaded.filter((u) => !orgFonts.data?.some((c) => c.id === u.id))];
  // The custom font just deleted: the customization read again then changes only the font fields.
  const deletedFont = useRef<string>(undefined);
  useEffect(() => {
    if (!loaded.data) return;
    const fresh = fieldsOf(loaded.data);
    const deleted = deletedFont.current;
    deletedFont.current = undefined;
    setF((old) => (old && deleted ? withoutFont(old, fresh, deleted) : fresh));
  }, [loaded.data]);
  const set = <K extends keyof Fields>(k: K, v: Fields[K]) => setF((old) => old && { ...old, [k]: v });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!loaded.data || !f) return;
    const body = bodyOf(loaded.data, f, custom);
    setDone('');
    if (await action.run(() => settingsApi.setCustomization(org, site.id, body))) {
      setDone('Customization saved.');
      setPreview(Date.now());
      loaded.reload();
    }
  };
  // The published pages allow framing by their own origin (frame-ancestors 'self'): the preview loads the site's
  // path on the instance (`/sites/{basename}`), not a custom hostname. A share-link or visitor-auth site needs a
  // key or a sign-in the frame does not have. `?preview=` (the time of the last save or load) passes the
  // browser's HTTP cache of the page (`max-age=60`).
  const path = site.urls.published ? new URL(site.urls.published, location.href).pathname : '';
  const previewable =
    site.published && path.startsWith('/sites/') && (site.visibility === 'public' || site.visibility === 'unlisted');
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Customization</h2>
      {loaded.error && <p role="alert">{loaded.error.message}</p>}
      <div className="customize">
        {f && (
          <form onSubmit={submit} className="stack" aria-labelledby={`${id}-h`}>
            <div className="field">
              <label htmlFor={`${id}-title`}>Title on the published site</label>
              <input
                id={`${id}-title`}
                value={f.title}
                minLength={2}
                maxLength={128}
                placeholder={site.title}
                onChange={(e) => set('title', e.target.value)}
              />
            </div>
            <SelectField
              id={`${id}-theme`}
              label="Theme"
              value={f.theme}
              options={THEMES}
              onChange={(v) => set('theme', v)}
            />
            <fieldset>
              <legend>Primary colour (links and accents)</legend>
              <label className="check">
                <input type="color" value={long(f.light)} onChange={(e) => set('light', e.target.value)} />
                In the light theme
              </label>
              <label className="check">
                <input type="color" value={long(f.dark)} onChange={(e) => set('dark', e.target.value)} />
                In the dark theme
              </label>
            </fieldset>
            <fieldset>
              <legend>Fonts</legend>
              <p className="muted">Served by this instance: the site loads no font from elsewhere.</p>
              <SelectField
                id={`${id}-font`}
                label="Text"
                value={f.font}
                options={fontOptions(TEXT_FONTS, loaded.data?.styling.font, custom)}
                onChange={(v) => set('font', v)}
              />
              <SelectField
                id={`${id}-hfont`}
                label="Headings"
                value={f.headingFont}
                options={[['', 'The text font'], ...fontOptions(TEXT_FONTS, loaded.data?.styling.headingFont, custom)]}
                onChange={(v) => set('headingFont', v)}
              />
              <SelectField
                id={`${id}-mfont`}
                label="Code"
                value={f.monoFont}
                options={fontOptions(MONO_FONTS, loaded.data?.styling.monospaceFont, custom)}
                onChange={(v) => set('monoFont', v)}
              />
              <CustomFontUpload
                org={org}
                onUploaded={(font) => {
                  setUploaded((u) => [...u, font]);
                  set('font', `font:${font.id}`);
                }}
              />
              <CustomFontList
                org={org}
                fonts={custom}
                onChanged={({ deleted }) => {
                  setUploaded((u) => u.filter((x) => x.id !== deleted));
                  orgFonts.reload();
                  // The API took the deleted font out of the site's customization: read it again, keeping the
                  // form's unsaved edits (only the fields that chose the font change).
                  if (deleted) {
                    deletedFont.current = deleted;
                    loaded.reload();
                  }
                }}
              />
            </fieldset>
            <SelectField
              id={`${id}-mode`}
              label="Light or dark"
              value={f.mode}
              options={MODES}
              onChange={(v) => set('mode', v)}
            />
            <label className="check">
              <input type="checkbox" checked={f.toggeable} onChange={(e) => set('toggeable', e.target.checked)} />
              Visitors can switch between light and dark
            </label>
            <div className="field">
              <label htmlFor={`${id}-logo`}>Logo (an image URL; empty: the title)</label>
              <input
                id={`${id}-logo`}
                type="url"
                value={f.logo}
                placeholder="https://…"
                onChange={(e) => set('logo', e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-emoji`}>Icon (an emoji; empty: none)</label>
              <input
                id={`${id}-emoji`}
                className="emoji"
                value={f.emoji}
                maxLength={50}
                onChange={(e) => set('emoji', e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-privacy`}>Privacy policy (its URL; empty: none)</label>
              <input
                id={`${id}-privacy`}
                type="url"
                value={f.privacy}
                placeholder="https://…"
                onChange={(e) => set('privacy', e.target.value)}
              />
            </div>
            <AnnouncementFields value={f.announcement} onChange={(a) => set('announcement', a)} />
            <HeaderLinks items={f.headerLinks} onChange={(l) => set('headerLinks', l)} />
            <FooterFields footer={f.footer} onChange={(v) => set('footer', v)} />
            <SocialAccounts items={f.social} onChange={(v) => set('social', v)} />
            <AISettings value={f.ai} onChange={(v) => set('ai', v)} />
            <button type="submit" disabled={action.busy}>
              Save customization
            </button>
            <span aria-live="polite">{done}</span>
            {action.error && <p role="alert">{action.error}</p>}
          </form>
        )}
        <div className="preview">
          {previewable ? (
            <>
              <p className="muted">
                Preview of the published site (reloaded after each save).{' '}
                <a href={site.urls.published} target="_blank" rel="noreferrer">
                  Open the site
                </a>
              </p>
              <iframe key={preview} src={`${path}?preview=${preview}`} title={`Preview of ${site.title}`} />
            </>
          ) : (
            <p className="muted">
              The preview shows the published site: it appears once the site is published
              {site.published ? ' with a public or unlisted audience' : ''}.
            </p>
          )}
        </div>
      </div>
      {loaded.data && <SiteSpaceOverrides org={org} site={site} base={loaded.data} />}
    </section>
  );
}
