import { z } from "zod";
import { PERSONAL_TOKEN_CHOICES, issuePersonalToken } from "@/lib/domain/apps/personal-tokens";
import { defineOperation } from "../define";
import { IN_PERSON } from "./shared";

export const createTokenOp = defineOperation({
  name: "create_personal_token",
  title: "Make a personal API token",
  summary: "Settings > Connections: a token for the owner's own programs",
  description:
    "Makes a personal API token, as `npm run admin issue-token` does: a connected app of the owner's own with one access token " +
    "(scope email), for a lifetime chosen from a short list. The token is in this answer only. No API operation makes tokens: " +
    "a token that could make tokens would outlive its own revocation.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  input: z.strictObject({
    name: z.string().trim().min(1, "Name the token after what will use it, e.g. “Publishing script”").max(100, "Use at most 100 characters for the name"),
    days: z.coerce.number().refine((d) => (PERSONAL_TOKEN_CHOICES as readonly number[]).includes(d), "Choose how long the token lasts from the list"),
  }),
  output: z.strictObject({ access_token: z.string(), expires_at: z.string() }),
  run: async (ctx, { name, days }) => {
    const { baseUrl, mcpUrl } = ctx.ports.config();
    const t = await issuePersonalToken(ctx.db, ctx.caller.userId, { appName: name, expiresIn: days * 86400, audience: [baseUrl, mcpUrl] });
    return { access_token: t.access_token, expires_at: t.expires_at.toISOString() };
  },
});
