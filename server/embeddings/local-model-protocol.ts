/** Messages between the local provider and its model worker. */
import type { EmbedPriority } from "./provider.ts";

export interface LocalModelRequest {
  id: number;
  texts: string[];
  priority: EmbedPriority;
}

/** Vectors come back as one flat, transferred Float32Array: no copy of hundreds of numbers each. */
export type LocalModelReply =
  | { id: number; vectors: Float32Array<ArrayBuffer>; dimensions: number }
  | { id: number; error: string };
