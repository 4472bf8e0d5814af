// The platform's browser tests: Chromium (as the gateway's tests have it) and axe-core in the page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

export { hasChromium, useChromium } from '../../../../gateway/src/browser.testing.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core run in the page (evaluated through the DevTools protocol: the page's CSP allows no inline script). */
export async function axe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(`${AXE};0`);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
    violations: AxeViolation[];
  };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
