import { authorizationServerMetadata } from "@/lib/transports/oauth/metadata";
import { OAUTH_CORS } from "@/lib/transports/oauth/errors";

export const GET = () => Response.json(authorizationServerMetadata(), { headers: { ...OAUTH_CORS, "Cache-Control": "public, max-age=300" } });
export const OPTIONS = () => new Response(null, { status: 204, headers: OAUTH_CORS });
