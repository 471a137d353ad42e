import type { Db } from "@/lib/adapters/db";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { storeOrganizationAccounts } from "@/lib/domain/accounts/accounts";
import { ENDPOINTS } from "@/lib/domain/networks/scopes";
import { linkedInSession } from "./linkedin";
import { linkedInRefusal } from "./linkedin-media";
import type { Account } from "./tokens";
import { connectedConnection } from "./index";

// The company pages a LinkedIn member administers, found when they connect LinkedIn (with
// LINKEDIN_PAGES on): Organization Access Control by Role (GET /rest/organizationAcls, the
// member's approved ADMINISTRATOR roles), then each organization's name (GET
// /rest/organizations/{id}). Each becomes an account drafts can go to.

type Acl = { organization?: string; role?: string; state?: string };

/** The organizations `acc`'s member administers: their ids and names. */
export async function administeredPages(acc: Account, db: Db, now = new Date()): Promise<{ id: string; name: string | null; vanity: string | null }[]> {
  const { rest } = linkedInSession(acc, db, now);
  const res = await rest(`${ENDPOINTS.linkedin.organizationAcls.path}?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED`);
  if (!res.ok) throw await linkedInRefusal(res, "list of company pages");
  const acls = (((await res.json().catch(() => null)) as { elements?: Acl[] } | null)?.elements ?? []).filter(
    (a) => a.role === "ADMINISTRATOR" && a.state === "APPROVED",
  );
  const ids = [...new Set(acls.map((a) => /^urn:li:organization:(\d+)$/.exec(a.organization ?? "")?.[1]).filter((id): id is string => !!id))];
  const out = [];
  for (const id of ids) {
    const org = await rest(ENDPOINTS.linkedin.organization.path.replace("{id}", id));
    const body = org.ok ? ((await org.json().catch(() => null)) as { localizedName?: string; vanityName?: string } | null) : null;
    out.push({ id, name: body?.localizedName ?? null, vanity: body?.vanityName ?? null });
  }
  return out;
}

/**
 * After a LinkedIn sign-in (with LINKEDIN_PAGES on): the member's pages become accounts beside
 * their own. A failure is logged and leaves the sign-in alone: the pages come with the next one.
 */
export async function syncLinkedInPages(db: Db, provider: string, providerAccountId: string) {
  if (config().LINKEDIN_PAGES !== "on" || provider !== "linkedin") return;
  try {
    const acc = await connectedConnection(db, provider, providerAccountId);
    if (!acc) return;
    await storeOrganizationAccounts(db, acc, await administeredPages(acc, db));
  } catch (e) {
    log("warn", "LinkedIn company pages not read", errorFacts(e));
  }
}
