import { handleMcp } from "@/lib/mcp/handler";

export const POST = handleMcp;
export const GET = handleMcp;
export const DELETE = handleMcp;
export const OPTIONS = handleMcp;
