import { preflight, tokenEndpoint } from "@/lib/oauth/endpoints";

export const POST = tokenEndpoint;
export const OPTIONS = preflight;
