import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { operationsOf } from '../operation.ts';
import { HTTP_OPERATIONS } from '../registry.ts';
import { OPERATIONS_DOC_PATH, renderOperationsDoc } from './operations-doc.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

describe('docs/operations.md', () => {
  it('is what the contracts say (run `npm run docs` when this fails)', () => {
    const committed = readFileSync(`${repoRoot}${OPERATIONS_DOC_PATH}`, 'utf8');
    const expected = renderOperationsDoc();
    // A plain comparison first, so the failure message says what to do rather than printing a long diff.
    if (committed !== expected) {
      expect.fail(
        `${OPERATIONS_DOC_PATH} is stale: the contracts changed since it was written. Run \`npm run docs\` and commit it.`,
      );
    }
  });

  it('lists every operation served over HTTP once, by its GitBook operationId and route', () => {
    const doc = renderOperationsDoc();
    for (const op of HTTP_OPERATIONS) {
      expect(doc).toContain(`| ${op.http!.operationId} | ${op.http!.method} | \`/v1${op.http!.path}\` |`);
    }
  });

  it('renders a row with access, owning service section and internal procedures apart', () => {
    const define = operationsOf('sites', { tags: ['Sites'] });
    const served = define({
      id: 'widgets.get',
      input: z.object({ widgetId: z.string() }),
      output: z.object({}),
      http: { route: 'GET /widgets/{widgetId}', operationId: 'getWidget', summary: 'Get a | widget' },
    });
    const internal = define({ id: 'widgets.count', access: 'internal', input: z.object({}), output: z.number() });
    const doc = renderOperationsDoc([served, internal]);
    expect(doc).toContain('## sites');
    expect(doc).toContain(
      '| getWidget | GET | `/v1/widgets/{widgetId}` | 200 | Get a \\| widget | an API token | `widgets.get` |',
    );
    expect(doc).toContain('| `widgets.count` | query | other services only |');
    expect(doc).toContain('1 operation over HTTP, 1 internal procedure.');
  });
});
