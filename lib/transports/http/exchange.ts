import { readCapped } from "./body";
import type { ApiAnswer, ApiRequest } from "./request";

export type { ApiAnswer, ApiRequest };

export function fromWebRequest(req: Request): ApiRequest {
  return { method: req.method, header: (name) => req.headers.get(name), body: (maxBytes, gate) => readCapped(req, maxBytes, gate) };
}

export const toWebResponse = (answer: ApiAnswer) => new Response(answer.body, { status: answer.status, headers: answer.headers });
