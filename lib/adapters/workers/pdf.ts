import path from "node:path";
import { Worker } from "node:worker_threads";
import type { PdfPages } from "@/lib/domain/ports";

/**
 * pdf-pages.worker.cjs on a thread of its own, stopped at the deadline, its heap capped;
 * answers once the thread is gone. pdf.js is loaded by that thread only.
 */
export function pdfPages(input: Uint8Array, limits: { max: number; ms: number; heapMb: number }): Promise<PdfPages> {
  return new Promise<PdfPages>((resolve) => {
    const worker = new Worker(path.join(process.cwd(), "lib", "adapters", "workers", "pdf-pages.worker.cjs"), {
      workerData: { bytes: input, max: limits.max },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
    let answered = false;
    const end = (answer: PdfPages) => {
      if (answered) return; // the first answer counts: the thread exits after it
      answered = true;
      clearTimeout(timer);
      const done = () => resolve(answer);
      worker.terminate().then(done, done);
    };
    const timer = setTimeout(() => end({ error: `reading it took more than ${limits.ms / 1000} seconds` }), limits.ms);
    worker.once("message", end);
    // Out of memory, say: the file is refused, the server goes on.
    worker.once("error", () => end({ error: "unreadable" }));
    worker.once("exit", () => end({ error: "unreadable" }));
  });
}
