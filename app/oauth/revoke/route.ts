import { preflight, revokeEndpoint } from "@/lib/oauth/endpoints";

export const POST = revokeEndpoint;
export const OPTIONS = preflight;
