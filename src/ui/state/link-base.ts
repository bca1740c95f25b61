// The address share links are made for. A page served from this machine (a preview server, a
// file opened from disk) would hand out links nobody else can open: the user names the address
// where the page is published instead, and it is kept in this browser for the next time.

const KEY = "hdr-spectrum.link-base";

export function loadLinkBase(): string {
  try {
    return localStorage.getItem(KEY) ?? "";
  } catch {
    return ""; // storage refused (a private window's policy): the page's own address then
  }
}

export function saveLinkBase(base: string): void {
  try {
    if (base.trim()) localStorage.setItem(KEY, base.trim());
    else localStorage.removeItem(KEY);
  } catch {
    // not kept across reloads, still used now
  }
}

/** The address a link is made for (before its `#`): the typed base, else the page's own. An error names what is wrong with the base. */
export function linkAddress(base: string, page: { origin: string; pathname: string; protocol: string; href: string }): { address: string } | { error: string } {
  const b = base.trim();
  if (!b) return { address: page.protocol === "file:" ? page.href.replace(/#.*$/, "") : `${page.origin}${page.pathname}` };
  let u: URL;
  try {
    u = new URL(b);
  } catch {
    return { error: `Link address "${b}" is not an address: expected one like https://example.org/hdr-spectrum/` };
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return { error: `Link address "${b}": expected an http or https address` };
  return { address: `${u.origin}${u.pathname}` };
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "0.0.0.0", "[::]"]);

/** Whether a link to this address opens only on this machine: a file, localhost or a loopback address. */
export function pointsAtThisMachine(address: string): boolean {
  let u: URL;
  try {
    u = new URL(address);
  } catch {
    return false;
  }
  if (u.protocol === "file:") return true;
  const h = u.hostname.toLowerCase();
  return LOCAL_HOSTS.has(h) || h.endsWith(".localhost") || /^127\./.test(h);
}
