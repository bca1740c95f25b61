/** The browser to drive, or null when this machine has none (see browser.mjs). */
export function findBrowser(): string | null;
/** Finds a browser or installs one; exits the process with advice when it cannot. */
export function ensureBrowser(): string;
