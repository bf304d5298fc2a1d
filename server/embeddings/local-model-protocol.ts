/** Messages between the local provider and its model worker. */
import type { EmbedPriority } from "./provider.ts";

export interface LocalModelRequest {
  id: number;
  texts: string[];
  priority: EmbedPriority;
}

/**
 * Sent once, before any request: the scheduling niceness (0-19) the model's thread takes, so the
 * operating system runs HTTP and database work first whenever they want the CPU.
 */
export interface LocalModelSettings {
  niceness: number;
}

/** What the provider posts to the worker. */
export type LocalModelMessage =
  | { settings: LocalModelSettings }
  | LocalModelRequest;

/** Vectors come back as one flat, transferred Float32Array: no copy of hundreds of numbers each. */
export type LocalModelReply =
  | { id: number; vectors: Float32Array<ArrayBuffer>; dimensions: number }
  | { id: number; error: string }
  | ThreadPriorityReport;

/** The worker's answer to its settings: the niceness it runs at, or why it could not change it. */
export interface ThreadPriorityReport {
  niceness: number | null;
  problem?: string;
}
