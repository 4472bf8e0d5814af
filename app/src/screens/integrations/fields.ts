import type { Integration } from '../../api/integrations.ts';

type Scope = Integration['scopes'][number];
type Target = Integration['target'];
type Visibility = Integration['visibility'];

/** Every permission an integration may ask for, with what it lets it do (the contract's list, checked below). */
export const SCOPES = [
  ['space:content:read', "Read spaces' content"],
  ['space:content:write', "Change spaces' content"],
  ['space:metadata:read', "Read spaces' settings"],
  ['space:metadata:write', "Change spaces' settings"],
  ['space:git:sync', 'Run Git sync'],
  ['page:feedback:read', "Read readers' feedback on pages"],
  ['site:metadata:read', "Read sites' settings"],
  ['site:views:read', "Read sites' page views"],
  ['site:script:inject', 'Add a script to published sites'],
  ['site:script:cookies', 'Set cookies on published sites'],
  ['site:visitor:auth', "Authenticate sites' visitors"],
  ['site:visitor:claims', "Read sites' visitor claims"],
  ['site:adaptive:read', "Read sites' adaptive content schema"],
  ['site:adaptive:write', "Change sites' adaptive content schema"],
  ['conversations:ingest', 'Send conversations in'],
  ['openapi:read', 'Read OpenAPI specifications'],
  ['openapi:write', 'Change OpenAPI specifications'],
] as const satisfies readonly (readonly [Scope, string])[];
// A scope the contract adds and this list lacks fails the type check here.
const _allScopes: Exclude<Scope, (typeof SCOPES)[number][0]> extends never ? true : never = true;
void _allScopes;

export const TARGETS = [
  ['all', 'Organizations, spaces and sites'],
  ['organization', 'Organizations'],
  ['space', 'Spaces'],
  ['site', 'Sites'],
] as const satisfies readonly (readonly [Target, string])[];
export const targetLabel = (t: Target) => TARGETS.find(([k]) => k === t)?.[1] ?? t;

export const VISIBILITIES = [
  ['public', 'Public: listed for everyone on this instance'],
  ['unlisted', 'Unlisted: reached by its name only'],
  ['private', "Private: this organization's members only"],
] as const satisfies readonly (readonly [Visibility, string])[];

/** The longest icon accepted (decoded bytes), as the contract has it. */
export const ICON_MAX_BYTES = 256 * 1024;
/** The longest script accepted (characters). */
export const SCRIPT_MAX_CHARS = 512 * 1024;

/** A file's bytes as base64 (what `publishIntegration` takes for an icon). */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
