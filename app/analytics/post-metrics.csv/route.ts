import { requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { ownerContext } from "@/lib/domain/owner/owner";
import { getPostMetrics } from "@/lib/domain/metrics/read";
import { metricsCsv } from "@/lib/domain/metrics/csv";

export const dynamic = "force-dynamic";

// The analytics page's engagement table as a file, for the signed-in owner only.
export async function GET() {
  const me = await requireOwner("/analytics", { complete: true });
  const { posts } = await getPostMetrics(ownerContext(await db(), me, ports()), {});
  return new Response(metricsCsv(posts), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="post-metrics.csv"',
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
