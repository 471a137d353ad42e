import net from "node:net";

/**
 * A loopback TCP proxy in front of a real server (PostgreSQL, Redis) that a test can cut and
 * restore, to see the service through an outage without stopping the shared server.
 */
export class TcpProxy {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private targetHost: string,
    private targetPort: number,
  ) {}

  /** Starts listening (on the same port as before when restarted). */
  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Cuts every open connection and refuses new ones. */
  async stop() {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
