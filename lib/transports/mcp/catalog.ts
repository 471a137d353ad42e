import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type Server } from "@modelcontextprotocol/server";
import { llmsTxt } from "@/lib/transports/discovery/llms";
import { SERVER_ICONS } from "./icons";

// Besides tools: the service's guide as a resource (what /llms.txt serves), and one prompt
// that starts a week of drafts. Both are the same for every user and version.
const GUIDE_URI = "contentio://guide";

const PROMPTS = [
  {
    name: "plan_week",
    title: "Plan a week of posts",
    description: "Drafts one post per content pillar in the user's voice, for the user to review (nothing is scheduled or published).",
    arguments: [{ name: "theme", description: "Optional theme for the week", required: false }],
  },
];

/** Registers resources/* and prompts/* on a server that declares both capabilities. */
export function registerCatalog(server: Server) {
  server.setRequestHandler("resources/list", async () => ({
    resources: [{ uri: GUIDE_URI, name: "guide", title: "How to use this service", mimeType: "text/plain", icons: SERVER_ICONS }],
  }));
  server.setRequestHandler("resources/templates/list", async () => ({ resourceTemplates: [] }));
  server.setRequestHandler("resources/read", async (request) => {
    if (request.params.uri !== GUIDE_URI) throw new ResourceNotFoundError(request.params.uri);
    return { contents: [{ uri: GUIDE_URI, mimeType: "text/plain", text: llmsTxt() }] };
  });
  server.setRequestHandler("prompts/list", async () => ({ prompts: PROMPTS }));
  server.setRequestHandler("prompts/get", async (request) => {
    if (request.params.name !== "plan_week") throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const theme = request.params.arguments?.theme?.trim();
    return {
      description: PROMPTS[0].description,
      messages: [
        {
          role: "user" as const,
          content: {
            type: "text" as const,
            text:
              `Read my profile with get_profile_context. Then, for each of my content pillars, write ` +
              `one LinkedIn post in my voice${theme ? ` on the theme "${theme}"` : ""} and save it with ` +
              `create_draft. Do not schedule or publish anything; list the drafts for me to review.`,
          },
        },
      ],
    };
  });
}
