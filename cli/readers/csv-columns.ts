/** How CSV headers become event fields and cell text becomes field values. */
import { EVENT_FIELDS } from "../../shared/event-schema.ts";
import { InputError } from "../errors.ts";
import { closestName } from "./did-you-mean.ts";
import { type FieldMap, mapKey } from "./field-map.ts";

const NUMBER_FIELDS = new Set([
  "latitude",
  "longitude",
  "price_min",
  "price_max",
  "attendee_count",
  "capacity",
]);
const BOOLEAN_FIELDS = new Set(["is_virtual", "is_hybrid", "is_free", "is_sold_out"]);
const LIST_FIELDS = new Set(["categories", "tags", "topics"]);
const KNOWN_FIELDS = new Set<string>(EVENT_FIELDS);

const TRUE_WORDS = new Set(["true", "t", "yes", "y", "1", "on"]);
const FALSE_WORDS = new Set(["false", "f", "no", "n", "0", "off"]);

/**
 * Headers that conference lists use for the CFP fields (tech-conferences/conference-data's
 * cfpUrl and cfpEndDate, others' cfp_deadline), as normaliseHeader spells them.
 */
const HEADER_ALIASES = new Map([
  ["cfpurl", "cfp_url"],
  ["cfp_link", "cfp_url"],
  ["cfpenddate", "cfp_closes_at"],
  ["cfp_deadline", "cfp_closes_at"],
  ["cfpstartdate", "cfp_opens_at"],
]);

function normaliseHeader(header: string): string {
  const name = header.trim().toLowerCase().replace(/[\s-]+/g, "_");
  return HEADER_ALIASES.get(name) ?? name;
}

/**
 * The fields each column fills (none: dropped). A header is a field name (any case, spaces or
 * hyphens for underscores) unless `--map` says otherwise; any other header stops the run, since
 * every row would fail on it.
 */
export function columnFields(headers: string[], fieldMap: FieldMap): string[][] {
  const unknown: string[] = [];
  const fields = headers.map((header) => {
    const mapped = fieldMap.get(mapKey(header));
    if (mapped !== undefined) return mapped;
    const field = normaliseHeader(header);
    if (field === "") return [];
    if (!KNOWN_FIELDS.has(field)) unknown.push(header);
    return [field];
  });
  if (unknown.length > 0) {
    const names = unknown.map((h) => {
      const guess = closestName(normaliseHeader(h), EVENT_FIELDS);
      return `${JSON.stringify(h)}${guess ? ` (did you mean ${guess}?)` : ""}`;
    }).join(", ");
    throw new InputError(
      `Cannot read the CSV header: ${names} ${
        unknown.length === 1 ? "is not an event field" : "are not event fields"
      }. ` +
        `Map a column with --map "column=field", or drop it with --map "column=". Fields: ${
          EVENT_FIELDS.join(", ")
        }`,
    );
  }
  const seen = new Set<string>();
  for (const field of fields.flat()) {
    if (seen.has(field)) {
      throw new InputError(
        `Cannot read the CSV header: two columns fill ${field}; drop one with --map "column="`,
      );
    }
    seen.add(field);
  }
  return fields;
}

function parseNumber(text: string): number | string {
  const compact = text.replace(/\s+/g, "");
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(compact)) return Number(compact);
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(compact)) return Number(compact.replaceAll(",", ""));
  // European spreadsheets: a decimal comma (12,50), thousands as dots (1.250,50).
  if (/^[+-]?\d+,(\d{1,2}|\d{4,})$/.test(compact)) return Number(compact.replace(",", "."));
  if (/^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/.test(compact)) {
    return Number(compact.replaceAll(".", "").replace(",", "."));
  }
  // Left as text: the schema then says the field must be a number.
  return text;
}

function parseBoolean(text: string): boolean | string {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return text;
}

function parseList(text: string): string[] {
  return text.split(/[;|]/).map((item) => item.trim()).filter((item) => item !== "");
}

/** The field value a cell means; undefined for an empty cell (the field is then omitted). */
export function cellValue(field: string, cell: string): unknown {
  if (cell.trim() === "") return undefined;
  if (NUMBER_FIELDS.has(field)) return parseNumber(cell);
  if (BOOLEAN_FIELDS.has(field)) return parseBoolean(cell);
  if (LIST_FIELDS.has(field)) return parseList(cell);
  // Line breaks inside a quoted cell arrive as the file wrote them: store them as \n.
  return cell.indexOf("\r") === -1 ? cell : cell.replace(/\r\n?/g, "\n");
}
