import next from "eslint-config-next";

// The domain knows nothing of HTTP; pages and routes never talk to the database directly.
const config = [
  ...next,
  { ignores: [".next/**", "node_modules/**", ".data/**", "drizzle/migrations/**", "next-env.d.ts"] },
  {
    files: ["lib/domain/**", "lib/operations/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["next", "next/*", "@/lib/http/*", "@/lib/mcp/*"], message: "The domain does not know HTTP." }] },
      ],
    },
  },
  {
    files: ["app/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["drizzle-orm", "drizzle-orm/*", "@/drizzle/*"], message: "Routes call lib/, never the database." }] },
      ],
    },
  },
];

export default config;
