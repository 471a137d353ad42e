import { clientMetadata } from "@/lib/adapters/platforms/bluesky/oauth";

// This service as an atproto OAuth client (its client_id is this document's address): what a
// Bluesky PDS reads before showing the owner its sign-in page. On a loopback deployment the
// PDS reads none (atproto's loopback client), but the document says the same.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json(clientMetadata(), { headers: { "cache-control": "public, max-age=300" } });
}
