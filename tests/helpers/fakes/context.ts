import type http from "node:http";
import { json, type FakeState, type Misbehaviour, type Queue, type Route } from "./state";

/** What the fake's handlers share: the state, the misbehaviour queues and the answers every route gives alike. */
export type FakeContext = {
  f: FakeState;
  url: () => string;
  /** The next misbehaviour queued for `q` (undefined: behave). */
  next: (q: Queue) => Misbehaviour | undefined;
  serial: () => number;
  /** A request outside the contract: recorded (tests fail on it) and answered as the network would. */
  bad: (res: http.ServerResponse, why: string, status?: number, body?: unknown) => void;
  /** Answers a queued misbehaviour that happens before anything is created, or returns false. */
  refuseEarly: (res: http.ServerResponse, next: Misbehaviour | undefined, token: string) => boolean;
  /** After something was created: a hanging or cut connection hides the answer. */
  hideAnswer: (req: http.IncomingMessage, res: http.ServerResponse, next: Misbehaviour | undefined) => boolean;
  /** How long a token refresh takes to be answered. */
  refreshDelayMs: number;
  /** How long a post takes to be answered (the benchmark's platform latency). */
  answerDelay: () => Promise<void>;
  /** A new access token (and refresh token when the network gives one) for `scopes`. */
  issue: (route: Route, scopes: string[], member?: string, refresh?: boolean) => { access: string; refresh?: string };
};

export function fakeContext(
  f: FakeState,
  url: () => string,
  answerDelayMs: number,
  refreshDelayMs: number,
): FakeContext & { queue: Record<Queue, Misbehaviour[]>; hanging: Set<http.ServerResponse> } {
  const queue: Record<Queue, Misbehaviour[]> = {
    linkedin: [],
    x: [],
    "linkedin-comment": [],
    "linkedin-upload": [],
    "x-upload": [],
    "linkedin-read": [],
    "x-read": [],
  };
  const hanging = new Set<http.ServerResponse>();
  let serial = 0;
  const issued: Record<Route, number> = { linkedin: 0, x: 0 };
  return {
    f,
    url,
    queue,
    hanging,
    next: (q) => queue[q].shift(),
    serial: () => ++serial,
    bad(res, why, status = 400, body = { message: why }) {
      f.badRequests.push(why);
      json(res, status, body);
    },
    refuseEarly(res, next, token) {
      if (next === "429") {
        json(res, 429, { title: "Too Many Requests" }, { "x-rate-limit-reset": String(Math.floor(Date.now() / 1000) + 60), "x-rate-limit-remaining": "0" });
        return true;
      }
      if (next === "500") return (json(res, 503, { message: "Service Unavailable" }), true);
      if (next === "refuse") return (json(res, 400, { message: "Refused: the content is not acceptable" }), true);
      // An error text whose 199th character is the first half of an emoji: where a reason is cut.
      if (next === "emoji400") {
        res.writeHead(400, { "content-type": "application/json" }).end(`{"detail":"${".".repeat(187)}😀 and the rest of the reason, past the cut"}`);
        return true;
      }
      // Error bodies that echo the caller's credentials, labelled and bare, as some gateways do.
      if (next === "echo" || next === "echo500") {
        json(res, next === "echo" ? 400 : 503, {
          message: `Bad request: Authorization: Bearer ${token}`,
          detail: `${token} was rejected`,
          debug: `access_token=${token}&client_secret=li-secret`,
          echo: { access_token: token },
        });
        return true;
      }
      return false;
    },
    hideAnswer(req, res, next) {
      if (next === "timeout") return (hanging.add(res), true);
      if (next === "reset") return (req.socket.destroy(), true);
      return false;
    },
    refreshDelayMs,
    answerDelay: () => (answerDelayMs ? new Promise((r) => setTimeout(r, answerDelayMs)) : Promise.resolve()),
    issue(route, scopes, member, refresh = true) {
      const n = ++issued[route];
      const access = `${route}-access-${n}`;
      f.tokens[route].access.set(access, { scopes: new Set(scopes), member });
      if (!refresh) return { access };
      const r = `${route}-refresh-${n}`;
      f.tokens[route].refreshGrants.set(r, { scopes: new Set(scopes), member });
      return { access, refresh: r };
    },
  };
}
