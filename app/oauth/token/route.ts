import { preflight, tokenEndpoint } from "@/lib/transports/oauth/endpoints";

export const POST = tokenEndpoint;
export const OPTIONS = preflight;
