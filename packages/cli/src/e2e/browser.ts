// The platform's browser tests: Chromium (as the gateway's tests have it) and axe-core in the page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { crc32, deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';

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

/**
 * A PNG of `width` × `height` pixels to upload: one colour, or one per band (left to right, as wide as each other).
 */
export function png(width: number, height: number, ...bands: [number, number, number][]): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(bands[Math.floor((x * bands.length) / width)]!, 1 + x * 3);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Presses the mouse on the row `from` and moves it, still pressed, over the row `to` at `y` of its height (0 is its
 * top edge): the tree's drop line shows; the caller checks it, then lets go with `page.mouse.up()` or presses Escape.
 */
export async function dragRowOver(page: Page, from: Locator, to: Locator, y: number): Promise<void> {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + 60, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + 60, b.y + b.height * y, { steps: 4 });
}

/**
 * Opens the page at `url` (`…/{path}?edit`) in the editor, titled `title`, and its first table: the editor, the
 * table, and readers of its header cells and of its rows' cells (text content).
 */
export async function openTable(page: Page, url: string, title: string) {
  await page.goto(url);
  const editor = page.getByRole('textbox', { name: `Content of ${title}` });
  await editor.waitFor();
  const table = editor.locator('table').first();
  const header = () => table.locator('thead th').allTextContents();
  const rows = () =>
    table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)));
  return { editor, table, header, rows };
}
