/** The home page's search box and filters; a plain GET form that works without JavaScript. */
import type { FC } from "hono/jsx";
import { datePicks } from "../date-picks.ts";
import { isDateOnly } from "../../../shared/zoned-time.ts";
import { withParams } from "../page-query.ts";
import { ATTENDANCE, type Attendance } from "../../db/attendance.ts";

export interface SearchFormProps {
  params: Record<string, string>;
  /** Whether AI search can run: only then is "by meaning" offered. */
  aiAvailable: boolean;
  now: Date;
}

/** Parameters set in the filters panel: it opens when any is. */
const FILTER_NAMES = ["city", "country", "from", "to", "attendance", "is_free", "topic"];

/** A value fit for a date input: only a plain date is. */
function dateValue(value: string | undefined): string | undefined {
  return value && isDateOnly(value) ? value : undefined;
}

const TextField: FC<{ name: string; label: string; value?: string; hint?: string }> = (
  { name, label, value, hint },
) => (
  <div class="field">
    <label for={`f-${name}`}>{label}</label>
    <input type="text" id={`f-${name}`} name={name} value={value ?? ""} autocomplete="off" />
    {hint ? <span class="hint">{hint}</span> : null}
  </div>
);

const ModeChoice: FC<{ mode: string }> = ({ mode }) => (
  <fieldset class="field">
    <legend>Match</legend>
    <div class="modes">
      <label class="check">
        <input type="radio" name="mode" value="hybrid" checked={mode !== "text"} />
        Words and meaning
      </label>
      <label class="check">
        <input type="radio" name="mode" value="text" checked={mode === "text"} />
        Exact words
      </label>
    </div>
  </fieldset>
);

const DateFilters: FC<{ params: Record<string, string>; now: Date }> = ({ params, now }) => (
  <>
    <div class="field">
      <label for="f-from">From</label>
      <input type="date" id="f-from" name="from" value={dateValue(params.from) ?? ""} />
    </div>
    <div class="field">
      <label for="f-to">To</label>
      <input type="date" id="f-to" name="to" value={dateValue(params.to) ?? ""} />
    </div>
    <div class="quick-picks span-all">
      <span class="hint">Quick picks:</span>
      {datePicks(now).map((pick) => (
        <a
          key={pick.label}
          href={withParams("/", { ...params, from: pick.from, to: pick.to, cursor: undefined })}
        >
          {pick.label}
        </a>
      ))}
    </div>
  </>
);

const ATTENDANCE_LABELS: Record<Attendance, string> = {
  online: "Online (hybrid too)",
  in_person: "In person (hybrid too)",
  hybrid: "Hybrid only",
};

const KindFilters: FC<{ params: Record<string, string> }> = ({ params }) => (
  <>
    <div class="field">
      <label for="f-attendance">How</label>
      <select id="f-attendance" name="attendance">
        <option value="" selected={!params.attendance}>Any way</option>
        {ATTENDANCE.map((value) => (
          <option key={value} value={value} selected={params.attendance === value}>
            {ATTENDANCE_LABELS[value]}
          </option>
        ))}
      </select>
    </div>
    <fieldset class="field">
      <legend>Price</legend>
      <label class="check">
        <input type="checkbox" name="is_free" value="true" checked={params.is_free === "true"} />
        Free only
      </label>
    </fieldset>
  </>
);

export const SearchForm: FC<SearchFormProps> = ({ params, aiAvailable, now }) => {
  const filtering = FILTER_NAMES.some((name) => params[name] !== undefined);
  return (
    <form method="get" action="/" role="search" aria-label="Events">
      <div class="search-row">
        <div class="field">
          <label for="f-q">Search</label>
          <input
            type="search"
            id="f-q"
            name="q"
            value={params.q ?? ""}
            placeholder="rust, kubernetes, design systems…"
          />
        </div>
        {aiAvailable ? <ModeChoice mode={params.mode ?? "hybrid"} /> : null}
        <button type="submit">Search</button>
      </div>
      <details class="filters" open={filtering}>
        <summary>Filters</summary>
        <div class="filters-body">
          <TextField name="city" label="City" value={params.city} />
          <TextField name="country" label="Country" value={params.country} />
          <TextField name="topic" label="Topic" value={params.topic} hint="For example: rust" />
          <KindFilters params={params} />
          <DateFilters params={params} now={now} />
          <div class="span-all">
            <button type="submit" class="secondary">Apply filters</button>
          </div>
        </div>
      </details>
    </form>
  );
};
