// undici's Agent module alone: the package's index also loads fetch, web streams, caches and
// more, several times the start-up time and memory of this module (docs/performance.md).
declare module "undici/lib/dispatcher/agent.js" {
  import Agent from "undici/types/agent";
  export default Agent;
}
