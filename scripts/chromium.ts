// Debian's Chromium, never a downloaded browser (docs/development.md "Browser tests"), with the
// flags this machine needs: no sandbox as root, no GPU, and nothing that calls out to the network.
// One list for the e2e suite, the web benchmark and the test orchestrator's check.

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--headless',
];
