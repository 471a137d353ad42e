// The shapes an API request and answer take between the front server, the route file and the
// operation handler (types only: exchange.ts and body.ts both read them).

/**
 * Past `at` bytes (declared or read) a body is read on only if `admit()` lets it; `admit()`
 * throws otherwise, and the rest is not read (large-bodies.ts).
 */
export type BodyGate = { at: number; admit(): void };

/**
 * An API request as the operation handler reads it: its method, a header by (lower-case)
 * name, and its body up to a cap. Made from a web Request (the route file, `next dev`, the
 * tests) or straight from Node's request (`npm start`, lib/transports/http/node.ts), which spares a web
 * Request, its Headers, a body stream and a Response: a large share of a fetch_item's CPU
 * (docs/performance.md, "The request path").
 */
export type ApiRequest = {
  method: string;
  header(name: string): string | null;
  /**
   * The body's bytes, or null when it is larger than `maxBytes`: a declared length over the
   * cap is refused unread, and reading stops at the first chunk past it. Throws body.ts's
   * `bodyNotReceived()` (400 invalid_request) when the connection fails before the body is whole.
   * Past a `gate`'s size it reads on only if the gate admits it (else its error is thrown).
   */
  body(maxBytes: number, gate?: BodyGate): Promise<Uint8Array | null>;
};

/** An API answer: JSON text, its status and its headers. */
export type ApiAnswer = { status: number; headers: Record<string, string>; body: string };
