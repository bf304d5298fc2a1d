/** What handlers find on the Hono context. */
import type { Database } from "./db/connect.ts";
import type { Config } from "./config.ts";
import type { AiSearch } from "./embeddings/ai-search.ts";
import type { StorageGuard } from "./db/disk-space.ts";
import type { BatchSlots } from "./events/batch-slots.ts";
import type { InFlight } from "./in-flight.ts";
import type { DuplicateDetector } from "./duplicates/duplicate-detector.ts";
import type { Alerts } from "./alerts/alerts.ts";
import type { FederationService } from "./federation/service.ts";

/** The caller behind a verified key. */
export interface Principal {
  /** Null for the operator key from ADMIN_API_KEY, which has no database row. */
  keyId: string | null;
  contributorId: string | null;
  prefix: string;
  scopes: string[];
  rateLimitPerMinute: number;
  /** Whether the key's first batch is already kept for review. */
  hasFirstBatch: boolean;
  /** Whether the key's events go into AI search. */
  trusted: boolean;
  /** Made by its contributor on the dashboard: its batches may count against review budgets. */
  selfService: boolean;
}

/** Everything a request handler depends on, built once at start. */
export interface AppDeps {
  db: Database;
  config: Config;
  /** The embedding provider, vector store and worker behind semantic search; wakeWorker(). */
  ai: AiSearch;
  /** The embedded database's disk, watched so that writes stop before it is full. */
  storage?: StorageGuard;
  /** Bounds the pushed batches stored at once, so that they never hold the whole pool. */
  batchSlots: BatchSlots;
  /** When pushes were last in flight (saved-search matching waits for a pause). */
  pushes: InFlight;
  /** Every request in flight (background work on the embedded database gives way to them). */
  requests: InFlight;
  /** Detects the duplicates of pushed events after their batch commits. */
  duplicates: DuplicateDetector;
  /** Saved searches' notices: decided after detection and on trust, delivered by a worker. */
  alerts: Alerts;
  /** ActivityPub (server/federation/), unless FEDERATION is off. */
  federation?: FederationService;
}

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    principal: Principal;
    requestId: string;
  };
};
