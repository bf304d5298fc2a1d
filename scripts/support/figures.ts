/**
 * Benchmark figures as data: each measured number with its unit, the target it answers to, and
 * the machine's load when it was taken (this machine is shared, and a figure taken at load 6 on
 * two cores says less than one taken at load 1). scripts/bench.ts renders them as
 * docs/benchmarks.md; the single benchmark scripts print them as they come.
 */

/** A target a figure must meet. */
export interface Target {
  /** "max": the figure must be at most `value`; "min": at least. */
  kind: "max" | "min";
  value: number;
}

/** One measured number. */
export interface Figure {
  /** Which table it belongs to, such as "Search, 100,000 events". */
  section: string;
  name: string;
  value: number;
  unit: string;
  target?: Target;
  /** The one-minute load average when the measurement ended. */
  load: number;
  note?: string;
}

/** Collects figures and prints each as it is added. */
export class FigureLog {
  readonly figures: Figure[] = [];
  readonly #print: boolean;

  constructor(options: { print?: boolean } = {}) {
    this.#print = options.print ?? true;
  }

  /** Records a figure, noting the machine's load now. */
  add(figure: Omit<Figure, "load">): Figure {
    const full = { ...figure, load: loadAverage() };
    this.figures.push(full);
    if (this.#print) console.log(formatFigure(full));
    return full;
  }
}

/** The one-minute load average (0 where the system does not say). */
export function loadAverage(): number {
  try {
    return Deno.loadavg()[0];
  } catch {
    return 0;
  }
}

/** Whether the figure meets its target; null without one. */
export function meets(figure: Figure): boolean | null {
  if (!figure.target) return null;
  return figure.target.kind === "max"
    ? figure.value <= figure.target.value
    : figure.value >= figure.target.value;
}

/** The figure's value in its unit, with sensible precision. */
export function formatValue(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`.trim();
}

/** The target as "<= 30 ms" or ">= 80 %". */
export function formatTarget(target: Target | undefined, unit: string): string {
  if (!target) return "";
  return `${target.kind === "max" ? "<=" : ">="} ${formatValue(target.value, unit)}`;
}

/** One line for a terminal. */
export function formatFigure(f: Figure): string {
  const verdict = meets(f) === null ? "" : meets(f) ? "  met" : "  NOT MET";
  const target = f.target ? `  (target ${formatTarget(f.target, f.unit)})` : "";
  return `  ${f.name.padEnd(58)} ${formatValue(f.value, f.unit).padStart(12)}${target}${verdict}` +
    `  [load ${f.load.toFixed(2)}]${f.note ? `  ${f.note}` : ""}`;
}
