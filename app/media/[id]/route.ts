import { signedInUserId } from "@/lib/auth/session";
import { serveMedia } from "@/lib/http/media";

type Params = { params: Promise<{ id: string }> };

// An uploaded image or PDF, to its owner only (lib/http/media.ts).
const handler = async (req: Request, { params }: Params) => serveMedia(req, (await params).id, signedInUserId);

export const GET = handler;
export const HEAD = handler;
