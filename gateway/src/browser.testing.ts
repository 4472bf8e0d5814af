// Chromium for the browser tests (the gateway's, and the platform's in packages/cli/src/e2e).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type LaunchOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Debian's chromium (`apt-get install chromium`); `.ci/run` installs it and sets QUIRE_REQUIRE_BROWSER=1. */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser tests can run (`describe.skipIf(!hasChromium)`); without Chromium, QUIRE_REQUIRE_BROWSER=1 throws. */
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.QUIRE_REQUIRE_BROWSER === '1') {
  throw new Error(
    `A browser is required (QUIRE_REQUIRE_BROWSER=1) but ${CHROMIUM} is missing: apt-get install -y chromium`,
  );
}

/** The browser of a `describe`: new pages. */
export interface Chromium {
  newPage(options?: Parameters<Browser['newPage']>[0]): Promise<Page>;
}

/**
 * Chromium, launched (with the options `launch` answers then) before the tests of the enclosing
 * `describe.skipIf(!hasChromium)` and closed after them.
 */
export function useChromium(launch: () => LaunchOptions = () => ({})): Chromium {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({ ...launch(), executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    newPage: (options) => {
      if (!browser) throw new Error('Chromium is not running: useChromium() launches it before the tests');
      return browser.newPage(options);
    },
  };
}
