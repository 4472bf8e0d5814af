import { existsSync, readFileSync } from 'node:fs';
import { adminTokenFile, defaultDataDir } from './data-dir.ts';

export class CliError extends Error {}

export function adminToken(env: Record<string, string | undefined>): string {
  if (env.QUIRE_ADMIN_TOKEN) return env.QUIRE_ADMIN_TOKEN;
  const file = adminTokenFile(defaultDataDir(env));
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new CliError(`No instance admin token: set QUIRE_ADMIN_TOKEN, or run \`quire start\` once so that it writes ${file}`);
}

/** POST to the running instance with the admin token; the response's JSON, or a CliError with its message. */
export async function adminPost(env: Record<string, string | undefined>, path: string, body: unknown): Promise<unknown> {
  const base = (env.QUIRE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const token = adminToken(env);
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (err as Error).message;
    throw new CliError(`Quire is not reachable at ${base} (${reason}). Start it with \`npm start\`, or set QUIRE_URL.`);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`Unexpected answer from ${base}${path} (HTTP ${res.status}): is QUIRE_URL a Quire instance?`);
  }
  if (!res.ok) {
    const message = (json as { error?: { message?: string } }).error?.message ?? `HTTP ${res.status}`;
    throw new CliError(`${message} (HTTP ${res.status})`);
  }
  return json;
}
