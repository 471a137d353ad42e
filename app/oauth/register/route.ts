import { preflight, registerEndpoint } from "@/lib/transports/oauth/endpoints";

export const POST = registerEndpoint;
export const OPTIONS = preflight;
