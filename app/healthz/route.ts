import { alive } from "@/lib/transports/http/health";

export const dynamic = "force-dynamic";
export const GET = alive;
