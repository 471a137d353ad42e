"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ownerAction } from "@/lib/transports/owner/form";
import { clientAddress } from "@/lib/transports/http/client-address";
import { approveAuthorization, checkAuthorizeRequest, consentPurpose, denyAuthorization } from "@/lib/transports/oauth/authorize";

/**
 * Allow / Cancel. The request is checked again on the server (the client or its redirect
 * URI may have changed since the page was shown), the form's token must match this user and
 * this exact request, and Server Actions refuse posts from another origin.
 */
export async function decideConsent(form: FormData) {
  const query = String(form.get("query") ?? "");
  const back = `/oauth/authorize?${query}`;
  await ownerAction(form, { page: back, purpose: consentPurpose(query), expired: () => redirect(back) }, async (userId) => {
    const check = await checkAuthorizeRequest(new URLSearchParams(query), clientAddress(await headers()));
    if (!check.ok) redirect(back); // the page shows the error or sends the client its error
    redirect(form.get("decision") === "allow" ? await approveAuthorization(userId, check.request) : denyAuthorization(check.request));
  });
}
