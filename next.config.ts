import type { NextConfig } from "next";

const config: NextConfig = {
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "ioredis", "postgres"],
  poweredByHeader: false,
};

export default config;
