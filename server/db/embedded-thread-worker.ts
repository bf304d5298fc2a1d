/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * The embedded database's thread (embedded-thread.ts): PGlite, served on a loopback socket, so
 * that its statements run beside the server's JavaScript instead of taking turns with it.
 */
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import type { EmbeddedReply, EmbeddedRequest } from "./embedded-thread.ts";

let pglite: PGlite | undefined;
let server: PGLiteSocketServer | undefined;

self.onmessage = async (event: MessageEvent<EmbeddedRequest>) => {
  const request = event.data;
  const reply = (message: EmbeddedReply, transfer: Transferable[] = []) =>
    self.postMessage(message, transfer);
  try {
    if (request.kind === "open") {
      pglite = await PGlite.create(request.dataDir, { extensions: { vector } });
      server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0 });
      await server.start();
      reply({ id: request.id, conn: server.getServerConn() });
    } else if (request.kind === "snapshot") {
      if (pglite === undefined) throw new Error("the database is not open");
      const tar = await (await pglite.dumpDataDir("none")).arrayBuffer();
      reply({ id: request.id, tar }, [tar]);
    } else {
      await server?.stop();
      await pglite?.close();
      reply({ id: request.id });
    }
  } catch (err) {
    reply({ id: request.id, error: err instanceof Error ? err.message : String(err) });
  }
};
