/** Debian's Chromium (`.ci/provision.sh` installs it); SYNTHORG_CHROMIUM overrides. */
export const CHROMIUM = process.env.SYNTHORG_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Flags of a headless Chromium on a closed network: no background traffic (its connections would be
 * refused many at a time), no first-run, no sandbox (tests and benches run as root).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
