import { preflight, registerEndpoint } from "@/lib/oauth/endpoints";

export const POST = registerEndpoint;
export const OPTIONS = preflight;
