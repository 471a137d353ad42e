import { INVISIBLE_CHAR } from "@/lib/core/invisible-chars";

// What a client says about itself and the consent page or Settings > Connections shows (its
// name, its site and logo), checked alike whether it registered (register.ts) or describes
// itself in a metadata document (client-metadata.ts).

export const MAX_URI_CHARS = 2000;

/** A zero-width joiner inside an emoji sequence (👩‍💻): it joins the pictures, and is kept. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu;

/** Why a client_name cannot be shown as the app's name, or null. */
export function clientNameProblem(name: string): string | null {
  if (INVISIBLE_CHAR.test(name.replace(EMOJI_JOINER, "")))
    return "client_name must not contain control characters or invisible formatting characters (such as bidirectional overrides or zero-width spaces)";
  return null;
}

/** Why a client_uri or logo_uri cannot be kept, or null. */
export function pageUriProblem(key: string, value: unknown): string | null {
  if (typeof value !== "string" || !/^https:\/\//.test(value)) return `${key} must be an https URL`;
  if (value.length > MAX_URI_CHARS) return `${key} must be at most ${MAX_URI_CHARS} characters`;
  return null;
}
