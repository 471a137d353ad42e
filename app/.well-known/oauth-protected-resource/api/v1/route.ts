import { config } from "@/lib/core/config";
import { protectedResource } from "@/lib/transports/http/discovery";

export const GET = () => protectedResource(config().baseUrl).GET();
export const OPTIONS = () => protectedResource(config().baseUrl).OPTIONS();
