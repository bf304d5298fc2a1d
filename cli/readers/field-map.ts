/**
 * `--map name=field`: which fields a CSV column or a JSON field fills. One name may fill several
 * fields (`--map Link=source_url --map Link=external_id`); `name=` drops it.
 */
import { EVENT_FIELDS } from "../../shared/event-schema.ts";
import { UsageError } from "../errors.ts";
import { closestName } from "./did-you-mean.ts";

/** Source name (trimmed, lower case) to the fields it fills; an empty list drops it. */
export type FieldMap = Map<string, string[]>;

const KNOWN_FIELDS = new Set<string>(EVENT_FIELDS);

/** The key a source name is looked up by. */
export function mapKey(name: string): string {
  return name.trim().toLowerCase();
}

function unknownField(entry: string, field: string): never {
  const guess = closestName(field, EVENT_FIELDS);
  throw new UsageError(
    `Cannot use --map ${entry}: ${field} is not an event field` +
      (guess ? ` (did you mean ${guess}?)` : `; the fields are ${EVENT_FIELDS.join(", ")}`),
  );
}

/** Parses the `--map` entries. */
export function parseFieldMap(entries: string[]): FieldMap {
  const map: FieldMap = new Map();
  const dropped = new Set<string>();
  for (const entry of entries) {
    const eq = entry.lastIndexOf("=");
    if (eq <= 0) {
      throw new UsageError(
        `Cannot use --map ${entry}: write it as name=field (or name= to drop it)`,
      );
    }
    const key = mapKey(entry.slice(0, eq));
    const field = entry.slice(eq + 1).trim();
    if (field !== "" && !KNOWN_FIELDS.has(field)) unknownField(entry, field);
    const fields = map.get(key) ?? [];
    if (field === "") dropped.add(key);
    else if (!fields.includes(field)) fields.push(field);
    if (dropped.has(key) && fields.length > 0) {
      throw new UsageError(
        `Cannot use --map ${
          entry.slice(0, eq)
        }= with another --map of the same name: drop it or map it`,
      );
    }
    map.set(key, fields);
  }
  return map;
}

/**
 * A JSON event with its fields renamed by the map: mapped fields fill their targets, dropped ones
 * go, the rest stay as they are (the schema reports unknown ones).
 */
export function renameFields(
  event: Record<string, unknown>,
  map: FieldMap,
): Record<string, unknown> {
  if (map.size === 0) return event;
  const renamed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(event)) {
    const targets = map.get(mapKey(name));
    if (targets === undefined) {
      // A mapped target given as such too: the mapped value wins, whatever the order.
      if (!(name in renamed)) renamed[name] = value;
      continue;
    }
    for (const field of targets) renamed[field] = value;
  }
  return renamed;
}
