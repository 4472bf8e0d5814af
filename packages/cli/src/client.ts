import { existsSync, readFileSync } from 'node:fs';
import { adminTokenFile, defaultDataDir } from './data-dir.ts';
import { instanceUrl } from './instance-url.ts';

export class CliError extends Error {}

/** The instance admin token the CLI sends, and where it was found (named in the errors about it). */
export interface AdminToken {
  token: string;
  source: string;
}

export function adminToken(env: Record<string, string | undefined>): AdminToken {
  if (env.QUIRE_ADMIN_TOKEN) return { token: env.QUIRE_ADMIN_TOKEN, source: 'QUIRE_ADMIN_TOKEN' };
  const file = adminTokenFile(defaultDataDir(env));
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), source: file };
  throw new CliError(
    `No instance admin token: set QUIRE_ADMIN_TOKEN, or run \`quire start\` once so that it writes ${file}`,
  );
}

/** The message of a refused admin call: what the instance said, and what is wrong with the admin token. */
export function adminCallError(base: string, status: number, message: string, source: string): CliError {
  if (status === 401) {
    return new CliError(
      `The instance admin token was refused by ${base}: the token in ${source} is not this instance's admin token ` +
        `(${message}, HTTP 401). Use the admin-token file of the instance's data directory (QUIRE_DATA_DIR), or set ` +
        'QUIRE_ADMIN_TOKEN to the value the instance was started with.',
    );
  }
  if (status === 403) {
    return new CliError(
      `The token in ${source} is not the instance admin token (${message}, HTTP 403): a user's API token cannot ` +
        'administer the instance. Use the admin-token file of the data directory, or QUIRE_ADMIN_TOKEN.',
    );
  }
  return new CliError(`${message} (HTTP ${status})`);
}

/** POST to the running instance with the admin token; the response's JSON, or a CliError with its message. */
export async function adminPost(
  env: Record<string, string | undefined>,
  path: string,
  body: unknown,
): Promise<unknown> {
  const { url: base, source: urlSource } = instanceUrl(env);
  const { token, source } = adminToken(env);
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
    throw new CliError(
      `Quire is not reachable at ${base} (${reason}; URL from ${urlSource}). Start it with \`npm start\`, or set QUIRE_URL.`,
    );
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(
      `Unexpected answer from ${base}${path} (HTTP ${res.status}): is ${base} (from ${urlSource}) a Quire instance?`,
    );
  }
  if (!res.ok) {
    const message = (json as { error?: { message?: string } }).error?.message ?? `HTTP ${res.status}`;
    throw adminCallError(base, res.status, message, source);
  }
  return json;
}
