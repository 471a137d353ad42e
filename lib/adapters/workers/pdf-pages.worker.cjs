// Counts a PDF's pages on a thread of its own (lib/adapters/workers/pdf.ts runs it), so that a
// hostile file cannot hold up the server: the thread is stopped at a deadline and its heap is
// capped. The build bundles this file as a worker entry of its own; pdf.js stays out of the
// bundle (serverExternalPackages in next.config.mjs) and is loaded from node_modules.
"use strict";
const { parentPort, workerData } = require("node:worker_threads");

// The heap cap does not cover byte arrays (their memory lives outside V8's heap), and pdf.js
// decodes a compressed stream whole, doubling its buffer as it goes: a few kilobytes of deflated
// zeros holding the page tree would take gigabytes. So in this thread no byte array may be
// larger than SINGLE, nor large ones add up to more than TOTAL; past either the read fails and
// the file is refused. pdf.js builds its buffers with `new Uint8Array(length)` from the global
// name, which is what is bounded here (tests/integration/media-upload.test.ts, the PDF bombs).
const MB = 1024 * 1024;
const SINGLE = 32 * MB;
const TOTAL = 128 * MB;
let large = 0;
let capped = false;
const Bytes = Uint8Array;
globalThis.Uint8Array = new Proxy(Bytes, {
  construct(target, args, newTarget) {
    const length = args[0];
    if (typeof length === "number" && length >= MB && (length > SINGLE || (large += length) > TOTAL)) {
      capped = true;
      throw new RangeError("a stream decodes to too many bytes");
    }
    return Reflect.construct(target, args, newTarget === globalThis.Uint8Array ? target : newTarget);
  },
});

async function count(bytes, max) {
  // Imported once the bound is in place (pdf.js's legacy build is the one made for Node; it is
  // an ES module, which CommonJS loads with import()).
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  // A view made through the bounded constructor, so pdf.js takes it for its own kind of array.
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const doc = await getDocument({ data, isEvalSupported: false, verbosity: 0 }).promise;
  const { info } = await doc.getMetadata();
  if (info.EncryptFilterName) return { error: "unreadable", encrypted: true };
  if (doc.numPages > max) return { pages: doc.numPages };
  // The count is the page tree's own claim: each page is looked up to see that it is there.
  // pdf.js visits each node of the tree once per lookup, so a tree naming one branch twice,
  // forty levels down (a few kilobytes, and 2^40 visits to a naive walk), is refused as a
  // repeated node.
  for (let i = 1; i <= doc.numPages; i++) await doc.getPage(i);
  return { pages: doc.numPages };
}

function failure(e) {
  const text = e instanceof Error ? `${e.name} ${e.message}` : "";
  if (/Password/.test(text)) return { error: "unreadable", encrypted: true };
  if (capped) return { error: `a stream in it decodes to more than ${SINGLE / MB} MB` };
  if (/circular reference/i.test(text)) return { error: "its page tree names one page or branch twice" };
  return { error: "unreadable" };
}

count(workerData.bytes, workerData.max).then(
  (answer) => parentPort.postMessage(answer),
  (e) => parentPort.postMessage(failure(e)),
);
