import next from "eslint-config-next";

// The domain knows nothing of HTTP, and reaches the outside world only through the ports its
// context carries; pages and routes never talk to the database directly.
const noHttp = { group: ["next", "next/*", "@/lib/transports/*"], message: "The domain does not know HTTP, MCP or any other way in." };

// A closed core: every adapter is a port the domain declares (lib/domain/ports.ts) and is
// handed on ctx.ports; lib/adapters/ports.ts, the composition root, is the one place that imports
// them. The database is the exception: the domain is handed a handle (ctx.db) and its helpers.
const throughPorts = "The domain reaches the outside world through ctx.ports (lib/domain/ports.ts), never an adapter or the process's ports().";
// Resolved paths, so an alias, a relative path and import() are caught alike.
const adapters = ["ports.ts", "platforms", "ai", "scheduler", "inngest", "mail", "ratelimit", "workers", "webhooks"].map((a) => `lib/adapters/${a}`);
const clients = "^(nodemailer|sharp|pdfjs-dist|ai|@ai-sdk/.*|(node:)?worker_threads)$";
const closedCore = {
  paths: [
    { name: "@/lib/core/config", allowTypeImports: true, message: "The domain reads configuration through ctx.ports.config()." },
    { name: "@/lib/adapters/db", allowTypeImports: true, message: "The domain is handed its database (ctx.db), never the process's db() or database()." },
  ],
  patterns: [noHttp, { regex: clients, message: `${throughPorts} Mail, images, PDFs and the model are the mail, workers and model ports.` }],
};

const config = [
  ...next,
  { ignores: [".next/**", "node_modules/**", ".data/**", "drizzle/migrations/**", "next-env.d.ts"] },
  {
    files: ["lib/operations/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [noHttp] }] },
  },
  {
    files: ["lib/domain/**"],
    rules: {
      "no-restricted-imports": ["error", closedCore],
      "import/no-restricted-paths": ["error", { zones: [{ target: "./lib/domain", from: adapters.map((a) => `./${a}`), message: throughPorts }] }],
      // import() too: no-restricted-imports sees only static imports.
      "no-restricted-syntax": [
        "error",
        // (esquery's regular expressions cannot hold a "/": \x2F stands for it.)
        { selector: `ImportExpression[source.value=/${clients.replaceAll("/", "\\x2F")}/]`, message: throughPorts },
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
