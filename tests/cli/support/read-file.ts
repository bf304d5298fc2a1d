/** Reads a file or a string through the CLI's own readers and validation, in process. */
import { openInput } from "../../../cli/readers/open-input.ts";
import { type CheckedRecord, readRecords } from "../../../cli/readers/read-records.ts";
import type { Format } from "../../../cli/readers/formats.ts";
import type { ReaderOptions } from "../../../cli/readers/record.ts";

export const DATA = new URL("../../fixtures/", import.meta.url).pathname;

/** Every checked record of `path`, with reader options as the CLI's defaults would give. */
export async function readFile(
  path: string,
  options: Partial<ReaderOptions> = {},
): Promise<CheckedRecord[]> {
  const input = await openInput(path, { timeoutMs: 5000 });
  return await collect(input.format, input.chunks, {
    sourceName: path.split("/").pop()!,
    ...options,
  });
}

/** Every checked record of `text` read as `format`, fed in chunks of `chunkSize` characters. */
export async function readText(
  format: Format,
  text: string,
  options: Partial<ReaderOptions> = {},
  chunkSize = 7,
): Promise<CheckedRecord[]> {
  async function* chunks() {
    for (let i = 0; i < text.length; i += chunkSize) yield text.slice(i, i + chunkSize);
  }
  return await collect(format, chunks(), { sourceName: "input", ...options });
}

async function collect(
  format: Format,
  chunks: AsyncIterable<string>,
  options: Partial<ReaderOptions> & { sourceName: string },
) {
  const records: CheckedRecord[] = [];
  for await (
    const record of readRecords(format, chunks, {
      horizonDays: 365,
      from: new Date(),
      fieldMap: new Map(),
      ...options,
    })
  ) records.push(record);
  return records;
}

/** The valid records' events. */
export function valid(records: CheckedRecord[]): Record<string, unknown>[] {
  return records.flatMap((r) => (r.kind === "valid" ? [r.event] : []));
}
