import { config } from "@/lib/config";
import { protectedResource } from "@/lib/http/discovery";

export const GET = () => protectedResource(config().baseUrl).GET();
export const OPTIONS = () => protectedResource(config().baseUrl).OPTIONS();
