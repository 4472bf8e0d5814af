import {
  CUSTOMIZATION_GROUPS,
  CUSTOMIZATION_LIMITS,
  type SiteCustomizationInput,
  type SiteCustomizationSettings,
  type SiteSpaceCustomizationOverride,
} from '@quire/contracts';
import { invalid } from '@quire/kit';

type Settings = Omit<SiteCustomizationSettings, 'updatedAt'>;
type Json = Record<string, unknown>;

const themed = (light: string, dark = light) => ({ light, dark });

/** What a site shows for what was never set: GitBook's choices for a new site as its schema names them. */
export const DEFAULT_CUSTOMIZATION: Settings = {
  styling: {
    theme: 'clean',
    primaryColor: themed('#346DDB'),
    infoColor: themed('#787878'),
    successColor: themed('#00C950'),
    warningColor: themed('#FE9A00'),
    dangerColor: themed('#FB2C36'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: true },
  pageActions: { items: ['markdown', 'pdf'] },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  trademark: { enabled: true },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
};

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A site's customization as answered and rendered: what was set, each group filled field by field from the defaults. */
export function effectiveCustomization(stored: Json | null): Settings {
  const out: Json = { ...DEFAULT_CUSTOMIZATION, ...(stored ?? {}) };
  for (const group of CUSTOMIZATION_GROUPS) {
    const set = stored?.[group];
    if (isObject(set)) out[group] = { ...(DEFAULT_CUSTOMIZATION[group] as Json), ...set };
  }
  return out as Settings;
}

/** The groups an override fills field by field (paths); any other field an override gives replaces the site's. */
const OVERRIDE_GROUPS = new Set([
  'styling',
  'styling.sidebar',
  'styling.codeTheme',
  'internationalization',
  'header',
  'footer',
  'themes',
  'feedback',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
]);

/** `base` with `over` laid on it: groups merged field by field, other fields replaced. */
function layer(base: Json, over: Json, path = ''): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const at = path ? `${path}.${key}` : key;
    out[key] =
      OVERRIDE_GROUPS.has(at) && isObject(value) && isObject(base[key]) ? layer(base[key] as Json, value, at) : value;
  }
  return out;
}

/**
 * Only what was set: the site's customization as stored with the site space's overrides, no default filled in (the
 * published pages keep their own look for what was never set, e.g. their accessible colours).
 */
export function setCustomization(stored: Json | null, overrides: Json | null): Partial<Settings> {
  return layer(stored ?? {}, overrides ?? {}) as Partial<Settings>;
}

/** The customization a site space's pages show: the site's, with the site space's overrides. */
export function withOverrides(site: Settings, overrides: Json | null): Settings {
  return overrides ? (layer(site as Json, overrides) as Settings) : site;
}

/**
 * The overrides of a site space once `patch` applies: a field given is overridden, null removes its override, an
 * absent one is kept; a group left empty goes.
 */
export function patchOverrides(stored: Json | null, patch: Json, path = ''): Json {
  const out: Json = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    const at = path ? `${path}.${key}` : key;
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (OVERRIDE_GROUPS.has(at) && isObject(value)) {
      const inner = patchOverrides(isObject(out[key]) ? (out[key] as Json) : null, value, at);
      if (Object.keys(inner).length) out[key] = inner;
      else delete out[key];
    } else out[key] = value;
  }
  return out;
}

/** Refuses a customization (or overrides) whose JSON passes `CUSTOMIZATION_LIMITS.jsonBytes` (400 naming `field`). */
export function assertCustomizationSize(value: Json, field: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > CUSTOMIZATION_LIMITS.jsonBytes)
    throw invalid(`${field}: at most ${CUSTOMIZATION_LIMITS.jsonBytes} bytes of JSON (${bytes} given)`);
}

/** The fields of a request that are the customization (the path parameters and `unmasked` removed). */
export function customizationOf<T extends Json>(
  input: T,
): Omit<T, 'organizationId' | 'siteId' | 'siteSpaceId' | 'unmasked'> {
  const { organizationId: _o, siteId: _s, siteSpaceId: _ss, unmasked: _u, ...rest } = input;
  return rest;
}

export type { SiteCustomizationInput, SiteSpaceCustomizationOverride };
