import { preflight, revokeEndpoint } from "@/lib/transports/oauth/endpoints";

export const POST = revokeEndpoint;
export const OPTIONS = preflight;
