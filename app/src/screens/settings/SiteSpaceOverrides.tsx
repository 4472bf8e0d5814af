import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { type Customization, type Overrides, type Site, settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm, SelectField } from './common.tsx';
import { long, THEMES, type Theme } from './customize.ts';
import {
  EXTRA_FIELDS,
  EXTRA_GROUPS,
  ExtraControl,
  extrasOf,
  keyOf,
  putExtras,
  startOf,
} from './SiteSpaceOverrideFields.tsx';
import {
  type Announcement,
  AnnouncementFields,
  type Footer,
  FooterFields,
  type HeaderItem,
  HeaderLinks,
} from './SiteLinks.tsx';

/** What a site space overrides of the site's customization: null where the site's value applies. */
interface Own {
  title: string | null;
  theme: Theme | null;
  color: { light: string; dark: string } | null;
  emoji: string | null;
  headerLinks: HeaderItem[] | null;
  /** Its groups and copyright line together. */
  footer: Footer | null;
  announcement: Announcement | null;
  /** The other fields (SiteSpaceOverrideFields.tsx), by path: null where the site's value applies. */
  extras: Record<string, unknown>;
}

const NO_ANNOUNCEMENT: Announcement = { enabled: false, message: '', style: 'info' };

/**
 * The overrides of a site space, read from what its pages show (`getSiteSpaceCustomizationById`: the site's
 * customization with the overrides): a value that differs from the site's is the site space's own.
 */
function ownOf(site: Customization, c: Customization): Own {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return {
    title: same(c.title, site.title) ? null : (c.title ?? ''),
    theme: c.styling.theme === site.styling.theme ? null : c.styling.theme,
    color: same(c.styling.primaryColor, site.styling.primaryColor) ? null : c.styling.primaryColor,
    emoji: 'emoji' in c.favicon && !same(c.favicon, site.favicon) ? c.favicon.emoji : null,
    headerLinks: same(c.header.links, site.header.links) ? null : c.header.links,
    footer:
      same(c.footer.groups, site.footer.groups) && same(c.footer.copyright, site.footer.copyright)
        ? null
        : { ...c.footer, copyright: c.footer.copyright ?? '' },
    announcement: same(c.announcement, site.announcement) ? null : (c.announcement ?? NO_ANNOUNCEMENT),
    extras: extrasOf(site, c),
  };
}

/**
 * A site space's own title, theme, primary colour, icon, header links, footer and announcement, and the other fields
 * of GitBook's override (SiteSpaceOverrideFields.tsx), over the site's (`overrideSiteSpaceCustomizationById`).
 */
export function SiteSpaceOverrides({ org, site, base }: { org: string; site: Site; base: Customization }) {
  // Read again when the site's count of spaces changes (a space added or removed under "Sections and spaces").
  const siteSpaces = useLoad(() => settingsApi.siteSpaces(org, site.id), `site-spaces:${site.id}:${site.siteSpaces}`);
  const [chosen, setChosen] = useState('');
  const id = useId();
  const ss = siteSpaces.data?.find((s) => s.id === chosen);
  return (
    <section aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>A space's own look</h3>
      <p className="muted">
        A space of the site can have its own title, theme, colours, icon, header links, footer, announcement, style,
        light or dark mode, logos and page settings on its pages; the rest follows the site.
      </p>
      {siteSpaces.error && <p role="alert">{siteSpaces.error.message}</p>}
      <SelectField
        id={`${id}-ss`}
        label="Space of the site"
        value={chosen}
        options={[['', 'Choose a space'], ...(siteSpaces.data ?? []).map((s) => [s.id, s.title] as const)]}
        onChange={setChosen}
      />
      {ss && <OverrideForm key={`${ss.id}:${base.updatedAt}`} org={org} site={site.id} ss={ss} base={base} />}
    </section>
  );
}

function OverrideForm(props: { org: string; site: string; ss: { id: string; title: string }; base: Customization }) {
  const { org, site, ss, base } = props;
  const loaded = useLoad(() => settingsApi.siteSpaceCustomization(org, site, ss.id), `override:${ss.id}`);
  const [own, setOwn] = useState<Own>();
  const [done, setDone] = useState('');
  const action = useAction();
  useEffect(() => {
    if (loaded.data) setOwn(ownOf(base, loaded.data));
  }, [loaded.data, base]);
  const set = <K extends keyof Own>(k: K, v: Own[K]) => setOwn((o) => o && { ...o, [k]: v });
  const write = async (fn: () => Promise<unknown>, said: string) => {
    setDone('');
    if (await action.run(async () => (await fn(), true))) {
      setDone(said);
      loaded.reload();
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!own || !loaded.data) return;
    const message = own.announcement?.message.trim();
    const body = {
      title: own.title?.trim() || null,
      styling: { theme: own.theme, primaryColor: own.color },
      favicon: own.emoji?.trim() ? { emoji: own.emoji.trim() } : null,
      header: { links: own.headerLinks },
      footer: own.footer
        ? { groups: own.footer.groups, copyright: own.footer.copyright?.trim() ?? '' }
        : { groups: null, copyright: null },
      ...(own.announcement ? { announcement: { ...own.announcement, message: message ?? '' } } : {}),
    };
    putExtras(body, own.extras);
    // GitBook's API has no null for the announcement's override: to follow the site's announcement again, the
    // site space's overrides are removed, then the others written again.
    const dropAnnouncement = !own.announcement && ownOf(base, loaded.data).announcement !== null;
    void write(async () => {
      if (dropAnnouncement) await settingsApi.removeOverrides(org, site, ss.id);
      return settingsApi.override(org, site, ss.id, body as Overrides);
    }, `The look of ${ss.title} saved.`);
  };
  if (loaded.error) return <p role="alert">{loaded.error.message}</p>;
  if (!own) return null;
  return (
    <form className="stack" onSubmit={save} aria-label={`The look of ${ss.title}`}>
      <Override
        label="Own title"
        on={own.title !== null}
        onChange={(on) => set('title', on ? (base.title ?? '') : null)}
      >
        <input
          aria-label={`Title on the pages of ${ss.title}`}
          minLength={2}
          maxLength={128}
          required
          value={own.title ?? ''}
          onChange={(e) => set('title', e.target.value)}
        />
      </Override>
      <Override
        label="Own theme"
        on={own.theme !== null}
        onChange={(on) => set('theme', on ? base.styling.theme : null)}
      >
        <select
          aria-label={`Theme of ${ss.title}`}
          value={own.theme ?? ''}
          onChange={(e) => set('theme', e.target.value as Theme)}
        >
          {THEMES.map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      </Override>
      <Override
        label="Own primary colour"
        on={own.color !== null}
        onChange={(on) => set('color', on ? base.styling.primaryColor : null)}
      >
        {(['light', 'dark'] as const).map((k) => (
          <input
            key={k}
            type="color"
            aria-label={`Primary colour of ${ss.title} in the ${k} theme`}
            value={long(own.color?.[k] ?? '#000000')}
            onChange={(e) => own.color && set('color', { ...own.color, [k]: e.target.value })}
          />
        ))}
      </Override>
      <Override label="Own icon" on={own.emoji !== null} onChange={(on) => set('emoji', on ? '' : null)}>
        <input
          className="emoji"
          aria-label={`Icon of ${ss.title} (an emoji)`}
          maxLength={50}
          value={own.emoji ?? ''}
          onChange={(e) => set('emoji', e.target.value)}
        />
      </Override>
      <Override
        label="Own header links"
        below
        on={own.headerLinks !== null}
        onChange={(on) => set('headerLinks', on ? base.header.links : null)}
      >
        <HeaderLinks
          legend={`Header links of ${ss.title}`}
          items={own.headerLinks ?? []}
          onChange={(l) => set('headerLinks', l)}
        />
      </Override>
      <Override
        label="Own footer"
        below
        on={own.footer !== null}
        onChange={(on) => set('footer', on ? { ...base.footer, copyright: base.footer.copyright ?? '' } : null)}
      >
        <FooterFields
          legend={`Footer of ${ss.title}`}
          footer={own.footer ?? base.footer}
          onChange={(v) => set('footer', v)}
        />
      </Override>
      <Override
        label="Own announcement"
        below
        on={own.announcement !== null}
        onChange={(on) => set('announcement', on ? (base.announcement ?? NO_ANNOUNCEMENT) : null)}
      >
        <AnnouncementFields
          legend={`Announcement of ${ss.title}`}
          value={own.announcement ?? NO_ANNOUNCEMENT}
          onChange={(a) => set('announcement', a)}
        />
      </Override>
      {EXTRA_GROUPS.map((group) => (
        <fieldset key={group}>
          <legend>
            {group} of {ss.title}
          </legend>
          {EXTRA_FIELDS.filter((f) => f.group === group).map((f) => {
            const k = keyOf(f);
            const v = own.extras[k] ?? null;
            const put = (x: unknown) => set('extras', { ...own.extras, [k]: x });
            return (
              <Override
                key={k}
                label={f.label}
                below={f.control.kind !== 'colour'}
                on={v !== null}
                onChange={(on) => put(on ? startOf(base, f) : null)}
              >
                {f.control.kind === 'colour' ? (
                  <ExtraControl field={f} of={ss.title} value={v} onChange={put} />
                ) : (
                  <div className="nested">
                    <ExtraControl field={f} of={ss.title} value={v} onChange={put} />
                  </div>
                )}
              </Override>
            );
          })}
        </fieldset>
      ))}
      <div className="create">
        <button type="submit" disabled={action.busy}>
          Save the look of {ss.title}
        </button>
        <Confirm
          label={`Reset ${ss.title} to the site's look`}
          onConfirm={() =>
            void write(() => settingsApi.removeOverrides(org, site, ss.id), `${ss.title} follows the site.`)
          }
        />
      </div>
      <span aria-live="polite">{done}</span>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}

/**
 * A checkbox turning an override on (its control shown) or off (the site's value applies). `below`: its controls
 * (a fieldset of their own) go under the checkbox, not beside it.
 */
function Override(props: {
  label: string;
  on: boolean;
  onChange(on: boolean): void;
  children: ReactNode;
  below?: boolean;
}) {
  return (
    <div className={props.below ? undefined : 'check'}>
      <label className="check">
        <input type="checkbox" checked={props.on} onChange={(e) => props.onChange(e.target.checked)} />
        {props.label}
      </label>
      {props.on && props.children}
    </div>
  );
}
