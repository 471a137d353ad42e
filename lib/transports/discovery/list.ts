import { config } from "@/lib/core/config";
import { operations } from "@/lib/operations/registry";

/** `GET {base_url}`: the operation list (docs/interface.md, Addresses and discovery), a loop over the registry. */
export function operationList() {
  const { baseUrl, origin, mcpUrl } = config();
  return {
    version: "v1",
    operations: operations.map((op) => ({
      name: op.name,
      method: "POST",
      path: `${baseUrl}/${op.name}`,
      summary: op.summary,
      permission: op.permission,
      confirmation: op.confirmation,
      hints: {
        read_only: op.hints.readOnly,
        destructive: op.hints.destructive,
        idempotent: op.hints.idempotent,
        open_world: op.hints.openWorld,
      },
    })),
    openapi_url: `${baseUrl}/openapi.json`,
    llms_txt_url: `${origin}/llms.txt`,
    mcp_url: mcpUrl,
  };
}
