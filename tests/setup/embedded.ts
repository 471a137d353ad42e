// The embedded project: the defaults a newcomer runs with (PGlite, the in-process rate
// limiter), whatever PostgreSQL or Redis the environment names for the other project.
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;
