import { operationList } from "@/lib/transports/discovery/list";
import { methodNotAllowed } from "@/lib/transports/http/discovery";

export const GET = () => Response.json(operationList());
export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
export const OPTIONS = POST;
