import { openApiDocument } from "@/lib/discovery/openapi";
import { methodNotAllowed } from "@/lib/http/discovery";

export const GET = () => Response.json(openApiDocument());
export const POST = methodNotAllowed("GET");
