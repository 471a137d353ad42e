import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { db } from "@/lib/adapters/db";
import { authAccounts, webhookEvents } from "@/drizzle/schema";
import { runDue } from "@/lib/adapters/scheduler";
import { disconnectAccount, setDefaultAccount } from "@/lib/domain/accounts/accounts";
import { draftHistory } from "@/lib/domain/drafts/history";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { getProfileContextOp } from "@/lib/operations/owner/get-profile-context";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { scheduleContentOp } from "@/lib/operations/publishing/schedule-content";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { reconfigure } from "../helpers/env";
import { asOwner } from "../helpers/owner";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { approved, inSeconds, row } from "../helpers/publishing";

// Several accounts a network: each draft goes to its own account (or the network's default),
// through the real adapters to the fakes, with that account's token and as that member.

withDatabase();

const platforms = withFakePlatforms({ SCHEDULE_MIN_LEAD_SECONDS: "1" });
const fake = () => platforms.fake;

type Account = { account_id: string; platform: string; default: boolean; handle: string | null };

async function owner() {
  const u = await makeUser({ publishing: true });
  const li1 = await platforms.connect(u, "linkedin");
  const x1 = await platforms.connect(u, "twitter");
  const li2 = await platforms.connect(u, "linkedin");
  const x2 = await platforms.connect(u, "twitter");
  const profile = expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output);
  const accounts = profile.accounts as Account[];
  const of = (platform: string) => accounts.filter((a) => a.platform === platform);
  return { u, li: of("pronet"), x: of("micro"), tokens: { li1, li2, x1, x2 }, accounts };
}

const create = async (u: TestUser, args: Record<string, unknown>) =>
  expectOk(await call("create_draft", args, { token: u.token }), createDraftOp.output) as { id: string };

const xAuth = (text: string) => fake().requests.find((r) => r.route === "x" && (r.body as { text?: string }).text === text)?.headers.authorization;

describe("several accounts a network", () => {
  it("lists every account, the first of each network the default; each draft goes to its own account, else the default", async () => {
    const { u, li, x, tokens } = await owner();
    expect(li).toHaveLength(2);
    expect(x).toHaveLength(2);
    expect([li.map((a) => a.default), x.map((a) => a.default)]).toEqual([
      [true, false],
      [true, false],
    ]);

    const tag = randomUUID().slice(0, 8);
    const hook = await call("manage_webhooks", { action: "create", url: "https://hooks.example.com/accounts", events: ["post.published"] }, { token: u.token });
    expect(hook.status).toBe(200);
    const toSecond = await create(u, { type: "tweet", body: `Second account ${tag}`, account_id: x[1].account_id });
    const toDefault = await create(u, { type: "tweet", body: `Default account ${tag}` });
    expect((await call("fetch_item", { type: "tweet", id: toSecond.id }, { token: u.token })).body.account_id).toBe(x[1].account_id);
    for (const d of [toSecond, toDefault]) expectOk(await approved(u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output);
    expect(xAuth(`Second account ${tag}`)).toBe(`Bearer ${tokens.x2.access}`);
    expect(xAuth(`Default account ${tag}`)).toBe(`Bearer ${tokens.x1.access}`);
    // Webhooks name the account each went to.
    const events = await (await db()).select().from(webhookEvents).where(eq(webhookEvents.userId, u.id));
    const eventOf = (id: string) => events.find((e) => e.type === "post.published" && e.subject === `tweet:${id}`)?.payload as { data: { account_id: string } };
    expect(eventOf(toSecond.id).data.account_id).toBe(x[1].account_id);
    expect(eventOf(toDefault.id).data.account_id).toBe(x[0].account_id);
    // The default bound at publishing shows where it went.
    const published = expectOk(await call("fetch_item", { type: "tweet", id: toDefault.id }, { token: u.token }), fetchItemOp.output);
    expect(published.account_id).toBe(x[0].account_id);

    const post = await create(u, { type: "post", body: `As the second member ${tag}`, account_id: li[1].account_id });
    expectOk(await approved(u, "publish_now", { type: "post", id: post.id }), publishNowOp.output);
    const sent = fake().created.linkedin.find((p) => p.text === `As the second member ${tag}`);
    expect(sent?.body.author).toBe(`urn:li:person:${tokens.li2.accountId}`);
  });

  it("refuses an account of another network or another owner like a missing one, and changes nothing", async () => {
    const { u, li, x } = await owner();
    const stranger = await owner();
    const wrongNetwork = await call("create_draft", { type: "post", body: "Where?", account_id: x[0].account_id }, { token: u.token });
    const theirs = await call("create_draft", { type: "post", body: "Where?", account_id: stranger.li[0].account_id }, { token: u.token });
    const missing = await call("create_draft", { type: "post", body: "Where?", account_id: randomUUID() }, { token: u.token });
    expectError(theirs, 422, "action_failed");
    expect(theirs.body).toEqual(missing.body);
    expect(wrongNetwork.body).toEqual(missing.body);
    const d = await create(u, { type: "post", body: "Mine", account_id: li[1].account_id });
    expectError(await call("update_draft", { type: "post", id: d.id, account_id: stranger.li[1].account_id }, { token: u.token }), 422, "action_failed");
    expect((await row("post", d.id)).accountId).toBe(li[1].account_id);
  });

  it("a scheduled draft keeps the account its approval named, whatever the default becomes; the approval names it", async () => {
    const { u, x, tokens } = await owner();
    const text = `Bound ${randomUUID().slice(0, 8)}`;
    const d = await create(u, { type: "tweet", body: text });
    const at = inSeconds(60);
    const first = await call("schedule_content", { type: "tweet", id: d.id, scheduled_for: at.toISOString() }, { token: u.token });
    expectError(first, 403, "confirmation_required");
    expect(first.body.error.confirmation.action.account).toMatchObject({ id: x[0].account_id, handle: x[0].handle, kind: "person" });
    expectOk(await approved(u, "schedule_content", { type: "tweet", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    // The history names the account it was scheduled to.
    const scheduled = (await draftHistory(await db(), u.id, "tweet", d.id)).find((e) => e.kind === "scheduled");
    expect(scheduled?.detail.account).toBe(x[0].handle);
    expect(await setDefaultAccount(await db(), u.id, x[1].account_id)).toBe(true);
    await runDue(await db(), { clock: () => new Date(at.getTime() + 500) });
    expect((await row("tweet", d.id)).status).toBe("published");
    expect(xAuth(text)).toBe(`Bearer ${tokens.x1.access}`);
    // New drafts go to the new default.
    const later = await create(u, { type: "tweet", body: `${text} later` });
    expectOk(await approved(u, "publish_now", { type: "tweet", id: later.id }), publishNowOp.output);
    expect(xAuth(`${text} later`)).toBe(`Bearer ${tokens.x2.access}`);
  });

  it("an approval to publish to one account cannot be spent after the app moves the draft to another", async () => {
    const { u, x } = await owner();
    const text = `Swapped ${randomUUID().slice(0, 8)}`;
    const d = await create(u, { type: "tweet", body: text, account_id: x[0].account_id });
    const first = await call("publish_now", { type: "tweet", id: d.id }, { token: u.token });
    expectError(first, 403, "confirmation_required");
    expect(await decideApproval(await db(), u.id, first.body.error.confirmation.id, "approved")).toBe(true);
    // The app points the unscheduled draft at the other account (no approval needed for that), then replays.
    expect((await call("update_draft", { type: "tweet", id: d.id, account_id: x[1].account_id }, { token: u.token })).status).toBe(200);
    const replay = await call("publish_now", { type: "tweet", id: d.id, confirmation_id: first.body.error.confirmation.id }, { token: u.token });
    expectError(replay, 403, "confirmation_required");
    expect(replay.body.error.confirmation.action.account.id).toBe(x[1].account_id);
    expect(xAuth(text)).toBeUndefined();
  });

  it("disconnecting an account unschedules what was scheduled to it, posts nothing to it, and the network's other account becomes the default", async () => {
    const { u, li } = await owner();
    const text = `Never posted ${randomUUID().slice(0, 8)}`;
    const d = await create(u, { type: "post", body: text, account_id: li[0].account_id });
    const at = inSeconds(60);
    expectOk(await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    expect(await disconnectAccount(await db(), u.id, li[0].account_id)).toBeTruthy();
    await runDue(await db(), { clock: () => new Date(at.getTime() + 500) });
    const r = await row("post", d.id);
    expect(r.status).toBe("draft");
    expect(r.accountId).toBeNull();
    expect(r.failureReason).toMatch(/disconnected/);
    expect(fake().posts.linkedin).not.toContain(text);
    const profile = expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output);
    expect((profile.accounts as Account[]).filter((a) => a.platform === "pronet").map((a) => [a.account_id, a.default])).toEqual([[li[1].account_id, true]]);
    // Another owner cannot disconnect or pick the owner's accounts.
    const stranger = await makeUser();
    expect(await disconnectAccount(await db(), stranger.id, li[1].account_id)).toBe(false);
    expect(await setDefaultAccount(await db(), stranger.id, li[1].account_id)).toBe(false);
  });
});

describe("disconnecting", () => {
  it("revokes a LinkedIn or X account's tokens at the network: a copy of them stops working there", async () => {
    const u = await makeUser({ publishing: true });
    const li = await platforms.connect(u, "linkedin");
    const refresh = `x-refresh-${randomUUID()}`;
    const x = await platforms.connect(u, "twitter", { refresh });
    fake().tokens.x.refreshGrants.set(refresh, { scopes: new Set(["tweet.write", "offline.access"]), member: x.accountId });
    const works = async (path: string, token: string) => (await fetch(`${fake().url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await works("/2/users/me", x.access)).toBe(200);
    const accounts = (expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output).accounts as Account[]).map(
      (a) => a.account_id,
    );
    for (const account_id of accounts) expect((await asOwner(u, "change_account", { account_id, action: "disconnect" })).body).toEqual({ changed: true });

    expect(fake().signIn.linkedin.revoked).toContainEqual({ token: li.access, hint: null });
    const revokedX = fake().signIn.x.revoked.filter((r) => r.token === refresh || r.token === x.access);
    expect(revokedX).toEqual([
      { token: refresh, hint: "refresh_token" },
      { token: x.access, hint: "access_token" },
    ]);
    expect(await works("/2/users/me", x.access)).toBe(401);
    expect(await works("/v2/userinfo", li.access)).toBe(401);
    expect(fake().tokens.x.refreshGrants.has(refresh)).toBe(false);
  });

  it("a network that cannot be reached does not keep the account connected, and the tokens are gone here", async () => {
    const u = await makeUser({ publishing: true });
    const x = await platforms.connect(u, "twitter");
    const restore = reconfigure({ X_API_URL: "http://127.0.0.1:9" }); // nothing listens there
    try {
      const [account] = expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output).accounts as Account[];
      expect((await asOwner(u, "change_account", { account_id: account.account_id, action: "disconnect" })).body).toEqual({ changed: true });
    } finally {
      restore();
    }
    const rows = await (await db()).select().from(authAccounts).where(eq(authAccounts.access_token, x.access));
    expect(rows).toEqual([]);
  });
});
