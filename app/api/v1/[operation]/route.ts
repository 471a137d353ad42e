import { handleOperation } from "@/lib/http/operation";

type Params = { params: Promise<{ operation: string }> };

// Every method goes to the one handler: it answers 405 for anything but POST.
const handler = async (req: Request, { params }: Params) => handleOperation(req, (await params).operation);

export const POST = handler;
export const GET = handler;
export const PUT = handler;
export const PATCH = handler;
export const DELETE = handler;
