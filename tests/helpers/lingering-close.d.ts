// Types of server/lingering-close.mjs, for the tests that build a server the way server.mjs
// does (kept here, not beside it: the image has no use for them).
declare module "@/server/lingering-close.mjs" {
  import type { IncomingMessage, Server } from "node:http";

  export const LINGER_BYTES: number;
  export const LINGER_MS: number;
  export function lingeringClose(req: IncomingMessage): void;
  export function lingerOnUnreadBodies(server: Server): void;
}
