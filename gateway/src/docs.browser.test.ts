import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from './app.ts';
import { hasChromium, useChromium } from './browser.testing.ts';
import { offlineGateway } from './gateway.testing.ts';

interface Violation {
  directive: string;
  blocked: string;
}

describe.skipIf(!hasChromium)('the /docs API reference in Chromium', () => {
  let gw: Gateway;
  let origin: string;
  beforeAll(async () => {
    gw = await offlineGateway();
    origin = await gw.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await gw?.close();
  });
  const browser = useChromium();

  it('renders the operations of /v1/openapi.json and requests nothing from another origin', {
    timeout: 90_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    page.on('request', (req) => requested.push(req.url()));
    const violations: Violation[] = [];
    await page.exposeFunction('reportCspViolation', (v: Violation) => violations.push(v));
    await page.addInitScript(
      `document.addEventListener('securitypolicyviolation', (e) => reportCspViolation({ directive: e.effectiveDirective, blocked: e.blockedURI }))`,
    );

    const res = await page.goto(`${origin}/docs`);
    expect(res?.status()).toBe(200);

    // As a reader would: open the "spaces" group in the sidebar and pick the operation.
    await page.getByRole('button', { name: 'Open Group - spaces' }).click({ timeout: 45_000 });
    await page.getByText('Create a space in an organization', { exact: true }).click();
    const heading = page.getByRole('heading', { name: 'Create a space in an organization' });
    await heading.waitFor();
    expect(await page.getByText('/v1/orgs/{organizationId}/spaces').count()).toBeGreaterThan(0);
    // No way off the machine from the page either: the hosted API client is not offered.
    expect(await page.locator('a[href*="client.scalar.com"]').count()).toBe(0);

    const screenshot = join(tmpdir(), 'quire-docs-reference.png');
    await page.screenshot({ path: screenshot });
    console.log(`screenshot of /docs: ${screenshot}`);

    const paths = requested
      .map((url) => new URL(url))
      .filter((url) => url.origin === origin)
      .map((url) => url.pathname);
    expect(paths).toEqual(
      expect.arrayContaining(['/docs', '/v1/openapi.json', expect.stringMatching(/^\/docs\/assets\//)]),
    );
    // data: and blob: URLs are made in the page; anything else must be this gateway.
    expect(
      requested.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin),
    ).toEqual([]);
    // The CSP (only 'self') would block any external load; the one violation allowed is zod's `Function('')`
    // probe for eval support, which catches the refusal and carries on without eval.
    expect(violations.filter((v) => v.blocked !== 'eval')).toEqual([]);
    await page.close();
  });
});
