import { errorText, send } from "./http";
import type { Answer } from "./request";
import { PublishError, type Probe } from "@/lib/domain/networks/platform";

/**
 * One harmless GET of `url` as the connected account: whether the network answers, and
 * what it said. A token that expired is renewed first where it can be; one that cannot is
 * reported, and the connection is marked for reconnecting as publishing would.
 */
export async function probe(
  network: string,
  url: string,
  auth: (call: (token: string) => Promise<Answer>) => Promise<Answer>,
  said: (res: Answer) => Promise<string>,
): Promise<Probe> {
  const path = new URL(url).pathname;
  try {
    const res = await auth((token) => send(network, url, { method: "GET", headers: { authorization: `Bearer ${token}` } }));
    if (res.ok) return { reachable: true, detail: `GET ${path} ${await said(res)}` };
    return { reachable: false, detail: `GET ${path} was refused (${res.status}: ${await errorText(res)})` };
  } catch (e) {
    return { reachable: false, detail: e instanceof PublishError ? e.message : `GET ${path} failed` };
  }
}
