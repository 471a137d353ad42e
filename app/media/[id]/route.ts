import { signedInUserId } from "@/lib/transports/auth/session";
import { serveMedia } from "@/lib/transports/http/media";

type Params = { params: Promise<{ id: string }> };

// An uploaded image or PDF, to its owner only (lib/transports/http/media.ts).
const handler = async (req: Request, { params }: Params) => serveMedia(req, (await params).id, signedInUserId);

export const GET = handler;
export const HEAD = handler;
