/**
 * Debian's Chromium for the tests where a page is the product (the ACS round trip, the Allure report), driven by
 * playwright-core: no browser download works here. Outside CI a missing browser skips the test with what to run;
 * in CI (CI=true) it fails, because .ci/run installs it and a skip there would hide a broken install step.
 */
import fs from 'node:fs';
import type { TestContext } from 'node:test';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(t: TestContext): Promise<Browser | undefined> {
  if (!fs.existsSync(CHROMIUM)) {
    if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing in CI: .ci/run should have run scripts/install-chromium.sh`);
    t.skip(`no ${CHROMIUM}: run scripts/install-chromium.sh`);
    return undefined;
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
