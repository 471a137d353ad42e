import { notFoundResponse } from "@/lib/transports/http/operation";

// Any other address under /api (including versions that do not exist yet, e.g. /api/v2).
const handler = async () => notFoundResponse();
export const GET = handler;
export const POST = handler;
export const PUT = handler;
export const PATCH = handler;
export const DELETE = handler;
export const OPTIONS = handler; // else Next answers 204 for an address that does not exist
