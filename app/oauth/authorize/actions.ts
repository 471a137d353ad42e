"use server";
import { createHash } from "node:crypto";
import { redirect } from "next/navigation";
import { checkCsrf, signedInUserId } from "@/lib/auth/session";
import { approveAuthorization, checkAuthorizeRequest, denyAuthorization } from "@/lib/oauth/authorize";

/** The CSRF purpose of one consent form: bound to the exact authorization request. */
export async function consentPurpose(query: string): Promise<string> {
  return `authorize:${createHash("sha256").update(query).digest("base64url")}`;
}

/**
 * Allow / Cancel. The request is checked again on the server (the client or its redirect
 * URI may have changed since the page was shown), the form's token must match this user and
 * this exact request, and Server Actions refuse posts from another origin.
 */
export async function decideConsent(form: FormData) {
  const query = String(form.get("query") ?? "");
  const back = `/oauth/authorize?${query}`;
  const userId = await signedInUserId();
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(back)}`);
  if (!checkCsrf(userId, await consentPurpose(query), form.get("csrf"))) redirect(back);
  const check = await checkAuthorizeRequest(new URLSearchParams(query));
  if (!check.ok) redirect(back); // the page shows the error or sends the client its error
  redirect(form.get("decision") === "allow" ? await approveAuthorization(userId, check.request) : denyAuthorization(check.request));
}
