import { config } from "@/lib/config";
import { protectedResource } from "@/lib/http/discovery";

export const GET = () => protectedResource(config().mcpUrl).GET();
export const OPTIONS = () => protectedResource(config().mcpUrl).OPTIONS();
