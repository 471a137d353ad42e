import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

// An app that trusts forwarding headers (TRUST_PROXY) takes the client's address from them: a
// client reaching it directly, not through the proxy, picks its own address for the
// per-address limits. compose.yaml as it starts with .env's variables unset (their defaults):
// no such app is published beyond this host, and the replicas behind the proxy publish
// nothing. The compose file itself is run by `npm run test:docker`; this reads it.

type Service = { image?: string; profiles?: string[]; environment?: Record<string, unknown>; ports?: unknown[]; command?: string[] };

function composeServices(file: string): Record<string, Service> {
  return parse(fs.readFileSync(file, "utf8"), { merge: true }).services;
}

/** A value with its variables at their defaults (`${X:-d}` is d, `${X:?...}` and `${X}` are empty), as with an empty .env. */
const defaults = (value: unknown) => String(value).replace(/\$\{[A-Z0-9_]+(?::?-([^}]*))?(?::?\?[^}]*)?\}/g, (_, d: string | undefined) => d ?? "");

/** The host address a `ports` entry publishes on: "" for every interface. */
function hostAddress(entry: unknown): string {
  if (entry && typeof entry === "object") return defaults((entry as { host_ip?: string }).host_ip ?? "");
  const parts = defaults(entry).split(":");
  return parts.length === 3 ? parts[0] : "";
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;
/** Whether TRUST_PROXY may be on: set, and not fixed at 0 (a variable may turn it on). */
const mayTrustProxy = (s: Service) => s.environment !== undefined && "TRUST_PROXY" in s.environment && String(s.environment.TRUST_PROXY) !== "0";

function exposedTrustingApps(services: Record<string, Service>): string[] {
  return Object.entries(services)
    .filter(([, s]) => mayTrustProxy(s))
    .flatMap(([name, s]) => (s.ports ?? []).filter((p) => !LOOPBACK.test(hostAddress(p))).map((p) => `${name}: ${JSON.stringify(p)}`));
}

const COMPOSE = path.resolve(import.meta.dirname, "../../compose.yaml");

describe("compose.yaml's published ports", () => {
  const services = composeServices(COMPOSE);
  const apps = Object.entries(services).filter(([, s]) => s.image?.startsWith("contentio"));

  it("publishes no app that may trust forwarding headers beyond this host", () => {
    expect(apps.length).toBeGreaterThan(0);
    expect(exposedTrustingApps(services)).toEqual([]);
  });

  it("under the replicas profile, the apps publish nothing and only the proxy reaches them", () => {
    const replicas = apps.filter(([, s]) => s.profiles?.includes("replicas"));
    expect(replicas.length).toBeGreaterThanOrEqual(2);
    for (const [name, s] of replicas) expect(s.ports ?? [], name).toEqual([]);
    const proxy = Object.values(services).find((s) => s.profiles?.includes("replicas") && s.command?.includes("reverse-proxy"));
    const targets = (proxy?.command ?? []).flatMap((arg, i, all) => (all[i - 1] === "--to" ? [arg.split(":")[0]] : []));
    expect(targets.sort()).toEqual(replicas.map(([name]) => name).sort());
  });

  it("would catch an app published on every interface while it may trust forwarding headers", () => {
    const open = { app: { image: "contentio:latest", environment: { TRUST_PROXY: "${TRUST_PROXY:-0}" }, ports: ["${APP_PUBLISH:-3000}:3000"] } };
    expect(exposedTrustingApps(open)).toHaveLength(1);
    const loopback = { app: { ...open.app, ports: ["${APP_PUBLISH_ADDRESS:-127.0.0.1}:${APP_PUBLISH:-3000}:3000"] } };
    expect(exposedTrustingApps(loopback)).toEqual([]);
  });
});
