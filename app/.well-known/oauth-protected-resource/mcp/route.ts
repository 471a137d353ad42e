import { config } from "@/lib/core/config";
import { protectedResource } from "@/lib/transports/http/discovery";

export const GET = () => protectedResource(config().mcpUrl).GET();
export const OPTIONS = () => protectedResource(config().mcpUrl).OPTIONS();
