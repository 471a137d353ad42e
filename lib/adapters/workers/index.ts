import type { Workers } from "@/lib/domain/ports";
import { imageFrames, reencodeImage } from "./image";
import { pdfPages } from "./pdf";

// The workers port's adapter: the heavy work on uploaded bytes, off the request's thread.
// What is accepted, the limits and the words of a refusal stay in the domain (media-files.ts).

export const mediaWorkers = (): Workers => ({ image: reencodeImage, pdfPages, frames: imageFrames });
