-- App names registered before names were checked (lib/oauth/client-fields.ts) lose the characters
-- that disguise them where they are shown: controls, bidi embeddings, overrides and isolates,
-- zero-width spaces and marks, the word joiner and the BOM. (The zero-width joiner stays: it
-- joins emoji.) A name of nothing else becomes "Unnamed app", as a registration without one.
UPDATE "oauth_clients"
SET "name" = coalesce(nullif(btrim(regexp_replace("name", '[\u0001-\u001f\u007f-\u009f\u00ad\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]', '', 'g')), ''), 'Unnamed app')
WHERE "name" ~ '[\u0001-\u001f\u007f-\u009f\u00ad\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]';
