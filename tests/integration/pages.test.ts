import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { syncLinkedInPages } from "@/lib/adapters/platforms/linkedin-pages";
import { signInScopes } from "@/lib/domain/networks/scopes";
import { getProfileContextOp } from "@/lib/operations/owner/get-profile-context";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { call, expectError, expectOk, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { png } from "../helpers/media";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { approved, row } from "../helpers/publishing";
import { authAccounts } from "@/drizzle/schema";

// LinkedIn company pages: with LINKEDIN_PAGES on, the pages a member administers become
// accounts when they connect LinkedIn, and a draft sent to one goes out as the organization
// (its images owned by it, its first comment by it), through the real adapter to the fake.

withDatabase();

const platforms = withFakePlatforms({ LINKEDIN_PAGES: "on" });
const fake = () => platforms.fake;

type Account = { account_id: string; platform: string; kind: string; name: string | null; default: boolean };

async function pageOwner() {
  const scopes = signInScopes("linkedin", { pages: true });
  const u = await makeUser({ publishing: true });
  const li = await platforms.connect(u, "linkedin", { scopes });
  const org = String(Math.floor(Math.random() * 1e9));
  fake().organizations.push({ id: org, name: `Acme ${org}`, vanity: `acme-${org}`, admins: [li.accountId] });
  fake().organizations.push({ id: `${org}9`, name: "Someone else's page", vanity: "other", admins: ["someone-else"] });
  await syncLinkedInPages(await db(), "linkedin", li.accountId);
  const profile = expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output);
  return { u, org, member: li.accountId, accounts: profile.accounts as Account[] };
}

describe("LinkedIn company pages", () => {
  it("the pages a member administers become accounts beside the member; others' do not", async () => {
    const { accounts, org } = await pageOwner();
    expect(accounts.map((a) => [a.kind, a.name, a.default])).toEqual([
      ["person", null, true],
      ["organization", `Acme ${org}`, false],
    ]);
  });

  it("a post to a page goes out as the organization, with its image owned by it and its first comment by it", async () => {
    const { u, org, accounts } = await pageOwner();
    const page = accounts.find((a) => a.kind === "organization")!;
    const img = (await call("upload_media", { data: (await png()).toString("base64"), content_type: "image/png", alt_text: "Our team" }, { token: u.token }))
      .body;
    const text = `We are hiring ${randomUUID().slice(0, 8)}`;
    const d = (
      await call(
        "create_draft",
        { type: "post", body: text, image_urls: [img.url], account_id: page.account_id, first_comment: "Apply here" },
        { token: u.token },
      )
    ).body;
    const ok = expectOk(await approved(u, "publish_now", { type: "post", id: d.id }), publishNowOp.output);
    const sent = fake().created.linkedin.find((p) => p.text === text)!;
    expect(sent.body.author).toBe(`urn:li:organization:${org}`);
    const image = (sent.body.content as { media: { id: string } }).media.id;
    expect(fake().uploads.get(image)?.owner).toBe(`urn:li:organization:${org}`);
    expect(fake().comments.filter((c) => c.object === ok.platform_post_id)).toEqual([
      expect.objectContaining({ actor: `urn:li:organization:${org}`, text: "Apply here" }),
    ]);
  });

  it("a connection made without the pages' permissions cannot post to a page, and says to reconnect", async () => {
    const { u, accounts, member } = await pageOwner();
    const page = accounts.find((a) => a.kind === "organization")!;
    // The member's connection as granted before LINKEDIN_PAGES was turned on.
    await (
      await db()
    )
      .update(authAccounts)
      .set({ scope: signInScopes("linkedin").join(",") })
      .where(eq(authAccounts.providerAccountId, member));
    const d = (await call("create_draft", { type: "post", body: `Not as the page ${randomUUID()}`, account_id: page.account_id }, { token: u.token })).body;
    const res = await approved(u, "publish_now", { type: "post", id: d.id });
    expectError(res, 422, "action_failed");
    expect(res.body.error.message).toMatch(/w_organization_social|rw_organization_admin/);
    expect((await row("post", d.id)).status).not.toBe("published");
  });

  it("a page the member no longer administers refuses the post: failed with LinkedIn's reason, nothing posted", async () => {
    const { u, org, accounts } = await pageOwner();
    fake().organizations.find((o) => o.id === org)!.admins = [];
    const text = `Lost access ${randomUUID()}`;
    const d = (
      await call("create_draft", { type: "post", body: text, account_id: accounts.find((a) => a.kind === "organization")!.account_id }, { token: u.token })
    ).body;
    const res = await approved(u, "publish_now", { type: "post", id: d.id });
    expectError(res, 422, "action_failed");
    expect((await row("post", d.id)).status).toBe("failed");
    expect(fake().posts.linkedin).not.toContain(text);
    fake().refusals.splice(0);
  });
});
