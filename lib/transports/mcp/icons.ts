import type { Icon } from "@modelcontextprotocol/server";
import type { Hints } from "@/lib/operations/define";

// Icons travel as data: URIs (allowed by the MCP specification), so a client needs no second request, no
// cookie and no reachable origin to show them.
const svg = (body: string): Icon => ({
  src: `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#4338ca" ` +
      `stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`,
  ).toString("base64")}`,
  mimeType: "image/svg+xml",
  sizes: ["any"],
});

/** The service: a page with lines of text. */
export const SERVER_ICONS: Icon[] = [svg('<rect x="4" y="3" width="16" height="18" rx="2"/><path d="M8 8h8M8 12h8M8 16h5"/>')];

const READ = svg('<circle cx="11" cy="11" r="6"/><path d="m20 20-4.5-4.5"/>');
const WRITE = svg('<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="m13 7 4 4"/>');
const PUBLISH = svg('<path d="M22 2 11 13"/><path d="M22 2 15 22l-4-9-9-4z"/>');

/** A tool's icon follows what it does: read, write, or act on the owner's accounts. */
export function toolIcons(hints: Hints): Icon[] {
  if (hints.readOnly) return [READ];
  return [hints.destructive ? PUBLISH : WRITE];
}
