// @ts-check
// JavaScript, not TypeScript: `npm start` loads this file at every start, and a .ts config
// makes Next load its native compiler (swc, a large binary, much of it resident) just to read it.

/** @type {import("next").NextConfig} */
const config = {
  // Loaded by Node, not bundled. drizzle-orm among them so that there is one copy of it: bundled,
  // the build held several (one per layer of Next's), so the columns of a query were never
  // instances of the classes drizzle checked them against while mapping its rows, and each
  // check fell back to walking the class chain (dozens a fetch_item; docs/performance.md).
  // pdfjs-dist too: the build bundles the PDF worker as an entry of its own, and pdf.js bundled
  // could not read a PDF (lib/adapters/workers/pdf-pages.worker.cjs). @atproto/api: a large
  // CommonJS package of lexicons the Bluesky adapter loads on first use.
  serverExternalPackages: ["@atproto/api", "@electric-sql/pglite", "@node-rs/argon2", "drizzle-orm", "ioredis", "pdfjs-dist", "postgres", "undici"],
  poweredByHeader: false,
  // The build does not type-check: `npm test` runs tsc over the whole project (pages, routes,
  // tests) beside it, and CI runs that on every commit, so the build's own check repeated it
  // (half of a build's time, and of the image's build).
  typescript: { ignoreBuildErrors: true },
  // Next loads every page and route at start by default; most are rarely used (the owner's
  // pages, OAuth consent, sign-in). Loaded on first use instead: less memory for as long as
  // they are not used, and a faster start.
  experimental: { preloadEntriesOnStart: false },
  // The owner's pages can never be framed (clickjacking of Allow / Approve). Only these page
  // paths: API, MCP, OAuth endpoints and /.well-known/* are left exactly as they are.
  async headers() {
    const noFraming = [
      { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
      { key: "X-Frame-Options", value: "DENY" },
      { key: "Referrer-Policy", value: "no-referrer" },
    ];
    return (
      // Every page (tests/e2e/owner-pages.test.ts checks each page.tsx against this list).
      [
        "/",
        "/oauth/authorize",
        "/confirm/:id",
        "/approvals",
        "/approvals/:path*",
        "/settings/:path*",
        "/signin",
        "/signup",
        "/signup/:path*",
        "/onboarding",
        "/content",
        "/content/:path*",
        "/calendar",
        "/queue",
        "/import",
        "/write",
        "/write/:path*",
        "/analytics",
        "/sandbox/:path*",
        "/docs/:path*",
      ]
        .map((source) => ({ source, headers: noFraming }))
        // An e-mailed link's page: never framed either, but its button's POST must carry its
        // Origin (checked), which a no-referrer page sends as "null".
        .concat({ source: "/signin/link", headers: [...noFraming.slice(0, 2), { key: "Referrer-Policy", value: "same-origin" }] })
    );
  },
};

export default config;
