// Characters that show nothing, or change how the text around them shows: controls (C0, DEL,
// C1), line and paragraph separators, and format characters (Unicode Cf: the bidi embeddings,
// overrides and isolates U+202A-U+202E and U+2066-U+2069, zero-width U+200B-U+200F, the word
// joiner, the BOM U+FEFF, the soft hyphen...). In a name shown to a person they make it read
// as something it is not ("Claude\u202Eexe.gnp" shows as "Claudepng.exe"); in a path, a
// browser may drop them and read another one.
export const INVISIBLE_CHAR = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
