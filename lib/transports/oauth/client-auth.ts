import { timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "@/lib/adapters/db";
import { hashToken } from "@/lib/domain/apps/tokens";
import { oauthClients } from "@/drizzle/schema";
import { findMetadataClient, isMetadataDocumentUrl } from "./client-metadata";
import { OAuthError } from "./errors";
import { isUuid } from "@/lib/core/ids";
import { readCapped, UTF8 } from "@/lib/transports/http/body";

export const MAX_OAUTH_BODY_BYTES = 64 * 1024;

/** An OAuth request's body as text, read as a stream and never past 64 KiB (413 beyond). */
export async function readOAuthBody(req: Request): Promise<string> {
  const bytes = await readCapped(req, MAX_OAUTH_BODY_BYTES).catch(() => {
    throw new OAuthError("invalid_request", "The request body did not arrive whole.");
  });
  if (!bytes) throw new OAuthError("invalid_request", `The body is larger than ${MAX_OAUTH_BODY_BYTES / 1024} KiB.`, 413);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new OAuthError("invalid_request", "The body is not UTF-8.");
  }
}

function basicCredentials(header: string | null): { id: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!m) return null;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const at = decoded.indexOf(":");
  if (at < 0) return null;
  try {
    return { id: decodeURIComponent(decoded.slice(0, at)), secret: decodeURIComponent(decoded.slice(at + 1)) };
  } catch {
    return null;
  }
}

/**
 * The client of a token or revocation request: public clients name themselves with
 * client_id; confidential ones prove their secret by HTTP Basic or in the form.
 */
export async function authenticateClient(form: URLSearchParams, authorization: string | null) {
  const basic = basicCredentials(authorization);
  const usedBasic = /^Basic\s/i.test(authorization ?? "");
  const invalid = (d: string) => new OAuthError("invalid_client", d, 401, usedBasic ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {});
  const id = basic?.id ?? form.get("client_id");
  if (!id) throw invalid("Client authentication failed: no client_id.");
  // A metadata-document client was fetched and stored when it asked for authorization.
  const client = isMetadataDocumentUrl(id)
    ? await findMetadataClient(id)
    : isUuid(id)
      ? (await (await db()).select().from(oauthClients).where(eq(oauthClients.id, id)))[0]
      : undefined;
  if (!client) throw invalid("Client authentication failed: unknown client.");
  if (client.secretHash) {
    const secret = basic?.secret ?? form.get("client_secret");
    const ok = secret !== null && timingSafeEqual(Buffer.from(hashToken(secret)), Buffer.from(client.secretHash));
    if (!ok) throw invalid("Client authentication failed: wrong or missing client secret.");
  }
  return client;
}

/** A form-encoded body (the OAuth endpoints' format), capped at 64 KiB. */
export async function readForm(req: Request): Promise<URLSearchParams> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded.");
  }
  const form = new URLSearchParams(await readOAuthBody(req));
  for (const key of new Set(form.keys())) {
    if (form.getAll(key).length > 1 && key !== "resource") throw new OAuthError("invalid_request", `${key} must not repeat.`);
  }
  return form;
}
