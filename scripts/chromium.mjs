// How every tool here starts Chromium: Debian's build (CHROMIUM_PATH to override), headless, with
// nothing of its own talking to the network. Used by playwright.config.ts and bench/page-js.mjs.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
  ],
};
