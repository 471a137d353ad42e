import path from "node:path";
import { describe, expect, it } from "vitest";
import { UPLOAD_BODY_BYTES } from "@/lib/operations/media/upload-media";

// The front server caps bodies before the app reads them (server/body-limits.mjs), in numbers
// of its own, since it cannot import TypeScript: they must not fall below what the app accepts.

const { capOf } = (await import(path.join(process.cwd(), "server", "body-limits.mjs"))) as { capOf: (url: string) => number };

describe("the front server's body caps", () => {
  it("take the composer's upload of the largest file upload_media accepts", () => {
    expect(capOf("/write/upload")).toBeGreaterThanOrEqual(UPLOAD_BODY_BYTES);
  });
});
