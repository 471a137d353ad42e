import { randomUUID } from "node:crypto";
import { checkCsrf, signedInUserId } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import { presentError } from "@/lib/core/errors/present";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerCaller } from "@/lib/domain/owner/owner";
import { uploadMediaOp } from "@/lib/operations/media/upload-media";
import { ownerRun } from "@/lib/transports/owner/door";
import { readJsonBody } from "@/lib/transports/http/body";
import { fromWebRequest } from "@/lib/transports/http/exchange";
import { largeBodyGate } from "@/lib/transports/http/large-bodies";

export const dynamic = "force-dynamic";

// The composer's uploads: upload_media through the one door, the owner in person, with the
// body read as the API reads one (its cap, its place among large bodies), sent by the
// signed-in owner's page with its progress shown. A cross-site page can send neither the CSRF
// header (a custom header needs a CORS preflight, which is never granted) nor a JSON body
// without one; the token is checked as a form's is. The front server caps the body at
// upload_media's own cap (server/body-limits.mjs).

const answer = (e: unknown) => {
  const { status, body } = presentError(e, randomUUID());
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
};

export async function POST(req: Request) {
  const userId = await signedInUserId();
  if (!userId) return answer(new AppError("unauthorized", "You are signed out.", "Sign in again, then add the file again."));
  if (!checkCsrf(userId, "write", req.headers.get("x-csrf-token")))
    return answer(
      new AppError("unauthorized", "This page has expired, so the file was not stored.", "Reload the page (your text is kept) and add the file again."),
    );
  const profile = await getProfile(await db(), userId);
  if (!profile) return answer(new AppError("unauthorized", "You are signed out.", "Sign in again, then add the file again."));
  const gate = largeBodyGate(userId);
  try {
    const out = await ownerRun(ownerCaller({ id: userId, ...profile }), uploadMediaOp, () =>
      readJsonBody(fromWebRequest(req), uploadMediaOp.maxBodyBytes, gate),
    );
    return Response.json(out, { headers: { "cache-control": "no-store" } });
  } catch (e) {
    return answer(e);
  } finally {
    gate.release();
  }
}
