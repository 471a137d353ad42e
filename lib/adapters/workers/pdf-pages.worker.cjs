"use strict";
// Counts a PDF's pages on a thread of its own (lib/adapters/workers/pdf.ts runs it), so that a
// hostile file cannot hold up the server: the thread is stopped at a deadline and its heap is
// capped. Plain CommonJS, loaded by path at run time: it is not part of the app's bundle.
const { parentPort, workerData } = require("node:worker_threads");
const { PDFDocument, PDFPageLeaf, PDFPageTree } = require("pdf-lib");

async function count(bytes, max) {
  const doc = await PDFDocument.load(bytes, { ignoreEncryption: false, updateMetadata: false });
  // pdf-lib's own count walks the page tree as if it were a tree: a file whose branches name
  // the same branch twice, forty levels down, is a few kilobytes and 2^40 visits. Here each
  // node is visited once (a repeated one is refused: a page tree has none), and the walk stops
  // once past the limit.
  const seen = new Set();
  const todo = [doc.catalog.Pages()];
  let pages = 0;
  while (todo.length && pages <= max) {
    const node = todo.pop();
    // Anything else (a reference to a missing object, say) is passed over, as pdf-lib does.
    if (!(node instanceof PDFPageLeaf || node instanceof PDFPageTree)) continue;
    if (seen.has(node)) return { error: "its page tree names one page or branch twice" };
    seen.add(node);
    if (node instanceof PDFPageLeaf) pages++;
    else {
      const kids = node.Kids();
      for (let i = 0; i < kids.size(); i++) todo.push(doc.context.lookup(kids.get(i)));
    }
  }
  return { pages };
}

count(workerData.bytes, workerData.max).then(
  (answer) => parentPort.postMessage(answer),
  (e) => parentPort.postMessage({ error: "unreadable", encrypted: e instanceof Error && /encrypt/i.test(`${e.name} ${e.message}`) }),
);
