-- The authentication epoch takes a new random value at every change instead of the next
-- number. A server reuses a token's row while the epoch equals the one read with it; with a
-- counter, a database brought back to an earlier state (a restore from backup, a failover to
-- a replica that had not received the last commits) would count again through values a
-- running server had already seen, and the next change could land on a kept row's value and
-- leave a revoked token working. A random 52-bit value is never met again in practice.
CREATE OR REPLACE FUNCTION "bump_auth_epoch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "auth_epoch" SET "n" = floor(random() * 4503599627370496)::bigint;
  RETURN NULL;
END
$$;
