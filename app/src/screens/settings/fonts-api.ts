// The /v1 calls of custom fonts: the organization's fonts, and a font file uploaded to a signed URL, then named by a font.
import type { ops } from '@quire/contracts';
import { ApiError, browserTransport, type Out, request, requestAll, seg, type Transport } from '../../api/client.ts';

export type CustomFont = Out<typeof ops.listCustomFonts>['items'][number];
/** A custom font as `styling.font` takes it (GitBook's `CustomizationFontDefinitionInput`: no `permissions`). */
export type FontDefinition = Omit<CustomFont, 'permissions'>;

/** The extensions a font file may have (the server reads its first bytes too). */
export const FONT_ACCEPT = '.woff2,.woff,.ttf,.otf';
/** The most bytes of a font file. */
export const FONT_MAX_BYTES = 2 * 1024 * 1024;

export const definitionOf = ({ permissions: _, ...font }: CustomFont): FontDefinition => font;

export function fontsApi(t: Transport = browserTransport) {
  const org = (o: string) => `/orgs/${seg(o)}`;
  const api = {
    list: (o: string) => requestAll<CustomFont>(t, `${org(o)}/fonts`),
    /** Uploads a font file to a signed URL (`generateStorageUploadURL`, then a `PUT` of its bytes): its storage key. */
    async store(o: string, file: File): Promise<string> {
      const signed = await request<Out<typeof ops.generateStorageUploadURL>>(t, 'POST', `${org(o)}/storage/upload`, {
        body: {
          kind: 'customization_font',
          file: { name: file.name, type: file.type || 'application/octet-stream', size: file.size },
        },
      });
      // The signed URL is on the instance's origin: its path keeps the request same-origin behind any proxy.
      const res = await t.fetch(new URL(signed.url, location.href).pathname, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'x-quire-csrf': t.csrf() },
        credentials: 'same-origin',
        body: file,
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
        throw new ApiError(res.status, body.error?.message ?? `${res.status} ${res.statusText}`);
      }
      return signed.key;
    },
    /** Uploads the file, then creates the font with it as its regular face (400) — or as the weight given. */
    async upload(o: string, file: File, fontFamily: string, weight = 400): Promise<CustomFont> {
      const storageKey = await api.store(o, file);
      return request<CustomFont>(t, 'PUT', `${org(o)}/fonts`, {
        body: { fontFamily, fontFaces: [{ weight, storageKey }] },
      });
    },
    /** Uploads the file as the face of `weight` of a font (`updateCustomFont`: added, or replacing that weight's). */
    async setFace(o: string, id: string, file: File, weight: number): Promise<CustomFont> {
      const storageKey = await api.store(o, file);
      return request<CustomFont>(t, 'POST', `${org(o)}/fonts/${seg(id)}`, {
        body: { fontFaces: [{ weight, storageKey }] },
      });
    },
    /** Removes a font's face of `weight` (never the regular one: the API refuses it). */
    removeFace: (o: string, id: string, weight: number) =>
      request<CustomFont>(t, 'POST', `${org(o)}/fonts/${seg(id)}`, {
        body: { fontFaces: [{ weight, storageKey: null }] },
      }),
    remove: (o: string, id: string) => request<void>(t, 'DELETE', `${org(o)}/fonts/${seg(id)}`),
  };
  return api;
}
export const fontApi = fontsApi();
