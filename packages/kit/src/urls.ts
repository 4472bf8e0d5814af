/** The public addresses of the instance (`QUIRE_PUBLIC_URL`), for every `urls` object of a response. */
export interface PublicUrls {
  /** The public base URL, without a trailing slash. */
  readonly base: string;
  /** `<base>/v1<path>`: where a resource lives in the API. */
  api(path: string): string;
  /** `<base><path>`: a page of the instance (application, published content). */
  page(path: string): string;
}

export function publicUrls(base: string): PublicUrls {
  const root = base.replace(/\/+$/, '');
  return { base: root, api: (path) => `${root}/v1${path}`, page: (path) => `${root}${path}` };
}
