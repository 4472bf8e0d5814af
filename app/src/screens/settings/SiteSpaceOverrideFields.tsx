import type { ReactNode } from 'react';
import type { Customization } from '../../api/settings.ts';
import { CODE_THEMES, long } from './customize.ts';

// The overrides of a site space beyond its title, theme, colour, icon, links, footer and announcement
// (SiteSpaceOverrides.tsx): each a field of GitBook's site space customization override, at its path.

type Pair = { light: string; dark: string };
/** How a field is drawn: its value's shape follows. */
type Control =
  | { kind: 'colour' } // a themed colour (light, dark)
  | { kind: 'select'; options: readonly (readonly [string, string])[] } // one of the options
  | { kind: 'themed-select'; options: readonly (readonly [string, string])[] } // one for light, one for dark
  | { kind: 'boolean'; yes: string } // a checkbox saying `yes`
  | { kind: 'url' } // an http(s) URL
  | { kind: 'themed-url' }; // an http(s) URL for light, one for dark

export interface ExtraField {
  /** Where the value is, in the customization and in the override (`styling.corners`). */
  path: readonly string[];
  /** The value is the object at `path` under this key (`styling.tint` is `{ color }`): null removes the object. */
  inner?: string;
  /** The checkbox's label ("Own corners"); the control's is this without "Own ", with the space's title. */
  label: string;
  group: string;
  control: Control;
  /** The value an override starts from when the site has none. */
  fallback?(site: Customization): unknown;
}

const option = <T extends string>(...v: [T, string][]) => v;
const primary = (c: Customization) => c.styling.primaryColor;

/** The fields, in the contract's order within each group (GitBook's deprecated ones left out). */
export const EXTRA_FIELDS: readonly ExtraField[] = [
  {
    group: 'Colours',
    path: ['styling', 'tint'],
    inner: 'color',
    label: 'Own tint',
    control: { kind: 'colour' },
    fallback: primary,
  },
  { group: 'Colours', path: ['styling', 'infoColor'], label: 'Own info colour', control: { kind: 'colour' } },
  { group: 'Colours', path: ['styling', 'successColor'], label: 'Own success colour', control: { kind: 'colour' } },
  { group: 'Colours', path: ['styling', 'warningColor'], label: 'Own warning colour', control: { kind: 'colour' } },
  { group: 'Colours', path: ['styling', 'dangerColor'], label: 'Own danger colour', control: { kind: 'colour' } },
  {
    group: 'Style',
    path: ['styling', 'corners'],
    label: 'Own corners',
    control: {
      kind: 'select',
      options: option(['straight', 'Straight'], ['rounded', 'Rounded'], ['circular', 'Circular']),
    },
  },
  {
    group: 'Style',
    path: ['styling', 'depth'],
    label: 'Own depth',
    control: { kind: 'select', options: option(['subtle', 'Subtle'], ['flat', 'Flat']) },
  },
  {
    group: 'Style',
    path: ['styling', 'links'],
    label: 'Own link style',
    control: { kind: 'select', options: option(['default', 'Default'], ['accent', 'Accent']) },
  },
  {
    group: 'Style',
    path: ['styling', 'icons'],
    label: 'Own style of icons',
    control: {
      kind: 'select',
      options: option(
        ['regular', 'Regular'],
        ['solid', 'Solid'],
        ['duotone', 'Duotone'],
        ['light', 'Light'],
        ['thin', 'Thin'],
      ),
    },
  },
  {
    group: 'Style',
    path: ['styling', 'sidebar', 'background'],
    label: 'Own sidebar background',
    control: { kind: 'select', options: option(['default', 'Default'], ['filled', 'Filled']) },
  },
  {
    group: 'Style',
    path: ['styling', 'sidebar', 'list'],
    label: 'Own sidebar list style',
    control: { kind: 'select', options: option(['default', 'Default'], ['pill', 'Pill'], ['line', 'Line']) },
  },
  {
    group: 'Style',
    path: ['styling', 'search'],
    label: 'Own search style',
    control: { kind: 'select', options: option(['prominent', 'Prominent'], ['subtle', 'Subtle']) },
  },
  {
    group: 'Style',
    path: ['styling', 'codeTheme', 'default'],
    label: 'Own code colours',
    control: { kind: 'themed-select', options: CODE_THEMES },
  },
  {
    group: 'Style',
    path: ['styling', 'codeTheme', 'openapi'],
    label: 'Own OpenAPI code colours',
    control: { kind: 'themed-select', options: CODE_THEMES },
  },
  {
    group: 'Light and dark',
    path: ['themes', 'default'],
    label: 'Own colour mode',
    control: {
      kind: 'select',
      options: option(['system', "The visitor's system setting"], ['light', 'Light'], ['dark', 'Dark']),
    },
  },
  {
    group: 'Light and dark',
    path: ['themes', 'toggeable'],
    label: 'Own mode switch',
    control: { kind: 'boolean', yes: 'Readers can switch between light and dark' },
  },
  {
    group: 'Logos',
    path: ['header', 'logo'],
    label: 'Own logo (header)',
    control: { kind: 'themed-url' },
    fallback: () => ({ light: '', dark: '' }),
  },
  {
    group: 'Logos',
    path: ['footer', 'logo'],
    label: 'Own logo (footer)',
    control: { kind: 'themed-url' },
    fallback: () => ({ light: '', dark: '' }),
  },
  {
    group: 'Pages and links',
    path: ['feedback', 'enabled'],
    label: 'Own page feedback',
    control: { kind: 'boolean', yes: 'Readers can rate pages' },
  },
  {
    group: 'Pages and links',
    path: ['pagination', 'enabled'],
    label: 'Own pagination',
    control: { kind: 'boolean', yes: 'Links to the previous and next pages' },
  },
  {
    group: 'Pages and links',
    path: ['trademark', 'enabled'],
    label: 'Own trademark',
    control: { kind: 'boolean', yes: '“Published with Quire” in the footer' },
  },
  {
    group: 'Pages and links',
    path: ['externalLinks', 'target'],
    label: 'Own external links',
    control: { kind: 'select', options: option(['self', 'Open in the same tab'], ['blank', 'Open in a new tab']) },
  },
  {
    group: 'Pages and links',
    path: ['privacyPolicy', 'url'],
    label: 'Own privacy policy',
    control: { kind: 'url' },
    fallback: () => '',
  },
  {
    group: 'Pages and links',
    path: ['socialPreview', 'url'],
    label: 'Own social preview image',
    control: { kind: 'url' },
    fallback: () => '',
  },
];

export const keyOf = (f: ExtraField) => f.path.join('.');

/** The value at `path` of an object (undefined where a step is missing). */
function at(o: unknown, path: readonly string[]): unknown {
  let v = o;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** A field's value in a customization (under `inner` when it has one). */
export const valueIn = (c: Customization, f: ExtraField) => at(at(c, f.path), f.inner ? [f.inner] : []);

/** The value an override of this field starts from: the site's, else its fallback, else the first choice. */
export function startOf(site: Customization, f: ExtraField): unknown {
  const v = valueIn(site, f);
  if (v !== undefined) return v;
  if (f.fallback) return f.fallback(site);
  const c = f.control;
  if (c.kind === 'colour') return primary(site);
  if (c.kind === 'select') return c.options[0]?.[0];
  if (c.kind === 'themed-select') return { light: c.options[0]?.[0], dark: c.options[0]?.[0] };
  if (c.kind === 'boolean') return false;
  return c.kind === 'url' ? '' : { light: '', dark: '' };
}

/** What a site space overrides of these fields (null: the site's value), read as `ownOf` reads the others. */
export function extrasOf(site: Customization, c: Customization): Record<string, unknown> {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return Object.fromEntries(
    EXTRA_FIELDS.map((f) => {
      const v = valueIn(c, f);
      return [keyOf(f), v === undefined || same(v, valueIn(site, f)) ? null : v];
    }),
  );
}

/** Writes each field into the override's body: its value, or null (the site's value applies again). */
export function putExtras(body: Record<string, unknown>, extras: Record<string, unknown>) {
  for (const f of EXTRA_FIELDS) {
    const v = extras[keyOf(f)] ?? null;
    let o = body;
    for (const k of f.path.slice(0, -1)) {
      const next = o[k];
      o = (o[k] = next && typeof next === 'object' ? { ...next } : {}) as Record<string, unknown>;
    }
    const last = f.path[f.path.length - 1] as string;
    o[last] = v === null ? null : f.inner ? { [f.inner]: v } : trimmed(v);
  }
  return body;
}

/** A URL (or a light and dark pair of them) without spaces around. */
function trimmed(v: unknown): unknown {
  if (typeof v === 'string') return v.trim();
  if (v && typeof v === 'object' && !Array.isArray(v))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x.trim() : x]));
  return v;
}

/** The groups of the fields, in order. */
export const EXTRA_GROUPS = [...new Set(EXTRA_FIELDS.map((f) => f.group))];

/** The control of one field, named after its label and the space (`of`). */
export function ExtraControl(props: { field: ExtraField; of: string; value: unknown; onChange(v: unknown): void }) {
  const { field: f, of, value, onChange } = props;
  const name = `${f.label.replace(/^Own /, '')} of ${of}`;
  const c = f.control;
  const pair = (value ?? {}) as Partial<Pair>;
  const both = (draw: (k: 'light' | 'dark') => ReactNode) => (['light', 'dark'] as const).map(draw);
  switch (c.kind) {
    case 'colour':
      return (
        <>
          {both((k) => (
            <input
              key={k}
              type="color"
              aria-label={`${cap(name)} in the ${k} theme`}
              value={long(pair[k] ?? '#000000')}
              onChange={(e) => onChange({ ...pair, [k]: e.target.value })}
            />
          ))}
        </>
      );
    case 'select':
      return (
        <select aria-label={cap(name)} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
          {c.options.map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      );
    case 'themed-select':
      return (
        <>
          {both((k) => (
            <label key={k} className="check">
              <span>{cap(k)}</span>
              <select
                aria-label={`${cap(name)} in the ${k} theme`}
                value={pair[k] ?? ''}
                onChange={(e) => onChange({ ...pair, [k]: e.target.value })}
              >
                {c.options.map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </>
      );
    case 'boolean':
      return (
        <label className="check">
          <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          {c.yes} ({of})
        </label>
      );
    case 'url':
      return (
        <input
          type="url"
          className="url"
          required
          placeholder="https://…"
          aria-label={`${cap(name)} (a URL)`}
          value={String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'themed-url':
      return (
        <>
          {both((k) => (
            <label key={k} className="check">
              <span>{cap(k)}</span>
              <input
                type="url"
                className="url"
                required
                placeholder="https://…"
                aria-label={`${cap(name)} in the ${k} theme (an image URL)`}
                value={pair[k] ?? ''}
                onChange={(e) => onChange({ ...pair, [k]: e.target.value })}
              />
            </label>
          ))}
        </>
      );
  }
}

const cap = (s: string) => `${s[0]?.toUpperCase() ?? ''}${s.slice(1)}`;
