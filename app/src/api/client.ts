// The app's only way to the server: the public /v1 API, with the session cookie and the CSRF header.
import type { AnyOperation, OperationInput, OperationOutput } from '@quire/contracts';

/** An answer of the API that is not a success: its status and the `{error:{message}}` sentence. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The session's CSRF token, written by the gateway into the page (`<meta name="quire-csrf">`). */
export function csrfToken(doc: Pick<Document, 'querySelector'> = document): string {
  return doc.querySelector('meta[name="quire-csrf"]')?.getAttribute('content') ?? '';
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Query = Record<string, string | number | boolean | undefined>;

/** `/v1` + path, each `{param}` already encoded by the caller (`p` below), the query appended. */
export function urlOf(path: string, query: Query = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return `/v1${path}${s ? `?${s}` : ''}`;
}

/** A path segment, encoded (ids, page paths keep their slashes through `pathOf`). */
export const seg = (s: string) => encodeURIComponent(s);
export const pathOf = (s: string) => s.split('/').map(encodeURIComponent).join('/');

export interface Transport {
  fetch(input: string, init: RequestInit): Promise<Response>;
  csrf(): string;
  /** Called on a 401: the session ended (the app goes to sign-in). */
  signedOut(): void;
}

export const browserTransport: Transport = {
  fetch: (input, init) => fetch(input, init),
  csrf: () => csrfToken(),
  signedOut: () => {
    const next = location.pathname + location.search;
    location.assign(`/login?next=${encodeURIComponent(next)}`);
  },
};

/** One call: JSON in and out, the CSRF header on every call, errors as ApiError. */
export async function request<T>(
  t: Transport,
  method: Method,
  path: string,
  opts: { query?: Query; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-quire-csrf': t.csrf() };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.fetch(urlOf(path, opts.query), {
    method,
    headers,
    credentials: 'same-origin',
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  if (res.status === 401) t.signedOut();
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      const body = (await res.json()) as { error?: { message?: string } };
      if (body.error?.message) message = body.error.message;
    } catch {
      // Not JSON (a proxy's page): the status line says it.
    }
    throw new ApiError(res.status, message);
  }
  if (res.status === 204 || res.status === 205) return undefined as T;
  return (await res.json()) as T;
}

/** Every item of a list: follows `next.page` (lists answer at most 100 items a call; 100 calls at most). */
export async function requestAll<T>(t: Transport, path: string, query: Query = {}): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await request<{ items: T[]; next?: { page: string } }>(t, 'GET', path, {
      query: { ...query, limit: 100, page },
    });
    items.push(...res.items);
    page = res.next?.page;
    if (!page) break;
  }
  return items;
}

/** The input and output types of a contract operation (types only: no schema reaches the bundle). */
export type In<Op extends AnyOperation> = OperationInput<Op>;
export type Out<Op extends AnyOperation> = OperationOutput<Op>;
