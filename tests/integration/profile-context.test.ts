import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { issueCommandLineToken } from "@/lib/domain/owner/users";
import { getProfileContextOp } from "@/lib/operations/owner/get-profile-context";
import { allowancePeriods, authAccounts, users } from "@/drizzle/schema";
import { call, expectOk, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

describe("get_profile_context", () => {
  it("returns voice, connections and allowance; name and picture only with the profile scope", async () => {
    const u = await makeUser({ plan: "plus" });
    const d = await db();
    const samples = ["one", "two", "three", "four", "five", "six"];
    await d
      .update(users)
      .set({
        name: "Ada",
        image: "https://img.example/ada.png",
        timezone: "Europe/Berlin",
        voiceSummary: "Calm",
        tone: ["warm"],
        samplePosts: samples,
        niche: "data",
        traits: ["curious"],
        pillars: [{ name: "Craft", description: null }],
      })
      .where(eq(users.id, u.id));
    await d.insert(authAccounts).values({ userId: u.id, type: "oauth", provider: "linkedin", providerAccountId: "li-1", handle: "ada-l" });
    await d.insert(allowancePeriods).values({ userId: u.id, period: new Date().toISOString().slice(0, 7), postsUsed: 4, aiActionsUsed: 10, creditsUsed: 70 });

    const plain = expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output);
    const now = new Date();
    expect(plain).toEqual({
      user: { id: u.id, email: u.email, name: null, image_url: null },
      plan: "plus",
      timezone: "Europe/Berlin",
      voice: { summary: "Calm", tone: ["warm"], sample_posts: samples.slice(0, 5) },
      niche: "data",
      traits: ["curious"],
      pillars: [{ name: "Craft", description: null }],
      connected_accounts: [
        { platform: "pronet", handle: "ada-l", connected: true, ready_to_publish: true },
        { platform: "micro", handle: null, connected: false, ready_to_publish: true }, // sandbox
      ],
      accounts: [
        {
          account_id: expect.any(String),
          platform: "pronet",
          network: "linkedin",
          kind: "person",
          name: "ada-l",
          handle: "ada-l",
          default: true,
          state: "connected",
        },
      ],
      publishing_allowed: false,
      allowance: {
        posts_remaining: 26,
        ai_actions_remaining: 90,
        credits_remaining: 930,
        resets_at: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      },
    });

    const t = await issueCommandLineToken(d, { email: u.email, scopes: ["email", "profile"], audience: [config().baseUrl] });
    const full = expectOk(await call("get_profile_context", {}, { token: t.access_token }), getProfileContextOp.output);
    expect(full.user).toEqual({ id: u.id, email: u.email, name: "Ada", image_url: "https://img.example/ada.png" });
  });
});
