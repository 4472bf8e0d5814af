// docs/spec/api.md is the contract Quire was built to: every endpoint it lists is served (checked here against
// the contracts, which the gateway routes and the OpenAPI document lists, so no running instance is needed).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HTTP_OPERATIONS } from '../registry.ts';
import { API_MD_ENDPOINTS } from './api-md-endpoints.ts';

/** A path's shape: no leading /v1, every parameter `{}`, no trailing slash. */
const shape = (path: string) =>
  path
    .replace(/^\/v1(?=\/|$)/, '')
    .replace(/\{[^}/]+\}/g, '{}')
    .replace(/\/+$/, '') || '/';

describe('docs/spec/api.md', () => {
  it('lists 126 distinct endpoints, each found in the document', () => {
    const keys = API_MD_ENDPOINTS.map(([method, path]) => `${method} ${shape(path)}`);
    expect(new Set(keys).size).toBe(126);
    const spec = readFileSync(fileURLToPath(new URL('../../../../docs/spec/api.md', import.meta.url)), 'utf8');
    // Each endpoint's last segment appears in api.md (its table writes the rest as a shorthand).
    for (const [, path] of API_MD_ENDPOINTS) expect(spec, path).toContain(path.split('/').at(-1)!);
  });

  it('is served: every endpoint has an operation, by method and path shape', () => {
    const served = new Set(HTTP_OPERATIONS.map((op) => `${op.http!.method} ${shape(op.http!.path)}`));
    const missing = API_MD_ENDPOINTS.filter(([method, path]) => !served.has(`${method} ${shape(path)}`)).map(
      ([m, p]) => `${m} ${p}`,
    );
    expect(missing).toEqual([]);
  });
});
