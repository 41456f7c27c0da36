// Modules that internal/extbuild provides at bundle time.

declare module "virtual:page-agent" {
  /**
   * The page agent (src/page/agent.ts) bundled as one IIFE script, to be
   * evaluated in AgentTab's isolated world of a frame, where it installs
   * globalThis.__agenttab (src/shared/page-agent.ts).
   */
  const source: string;
  export default source;
}
