// The Chromium that the dashboard's browser test and the bench's chart use: one that `npm install` brings, so nothing is
// installed by hand. Order: EDGEGYM_CHROMIUM (a path), the build shipped inside the npm package @sparticuz/chromium
// (unpacked once into the system's temporary folder), then Debian's /usr/bin/chromium when the package cannot be unpacked.
import { existsSync } from "node:fs";

const SYSTEM_CHROMIUM = "/usr/bin/chromium";

/** The flags every launch uses here: headless, no sandbox (root in CI), nothing that reaches the network by itself. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The path of a Chromium executable, or an error that says what was tried and how to give one. */
export async function chromiumPath(): Promise<string> {
  const configured = process.env.EDGEGYM_CHROMIUM;
  if (configured) {
    if (existsSync(configured)) return configured;
    throw new Error(`EDGEGYM_CHROMIUM=${configured}: no such file`);
  }
  let packaged: unknown;
  try {
    const { default: chromium } = await import("@sparticuz/chromium");
    const file = await chromium.executablePath();
    if (existsSync(file)) return file;
    packaged = `unpacked to ${file}, which is not there`;
  } catch (error) {
    packaged = error instanceof Error ? error.message : String(error);
  }
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  throw new Error(
    `no Chromium: the npm package @sparticuz/chromium could not be unpacked (${String(packaged)}) and ${SYSTEM_CHROMIUM} ` +
      "is missing; run npm install, or set EDGEGYM_CHROMIUM to a Chromium executable",
  );
}
