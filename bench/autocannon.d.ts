// Just the part of autocannon's programmatic API the bench uses (the package ships no types).
declare module "autocannon" {
  type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number; total?: number };
  export type Result = {
    duration: number;
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    statusCodeStats?: Record<string, { count: number | string }>;
  };
  type Context = Record<string, unknown> & { draftId?: string };
  /** One step of the sequence each connection repeats; context is that connection's own. */
  export type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: Request, context: Context) => Request | undefined;
    onResponse?: (status: number, body: string, context: Context) => void;
  };
  export type Options = {
    requests?: Request[];
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    timeout?: number;
  };
  type Instance = PromiseLike<Result> & {
    stop(): void;
    on(event: "response", fn: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): Instance;
  };
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
