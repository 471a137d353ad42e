import { openApiDocument } from "@/lib/transports/discovery/openapi";
import { methodNotAllowed } from "@/lib/transports/http/discovery";

export const GET = () => Response.json(openApiDocument());
export const POST = methodNotAllowed("GET");
