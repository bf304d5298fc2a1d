/**
 * A real browser for page tests: Debian's Chromium driven by playwright-core, installed by the
 * test set-up itself when missing, and axe-core run inside each page checked.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { exists } from "./databases.ts";

const CHROMIUM = "/usr/bin/chromium";
const AXE = new URL("../node_modules/axe-core/axe.min.js", import.meta.url);

async function run(command: string, args: string[]): Promise<boolean> {
  const result = await new Deno.Command(command, {
    args,
    env: { DEBIAN_FRONTEND: "noninteractive" },
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!result.success) console.error(new TextDecoder().decode(result.stderr));
  return result.success;
}

let installing: Promise<void> | undefined;

/** Installs Debian's chromium package when /usr/bin/chromium is missing (needs root). */
export function ensureChromium(): Promise<void> {
  installing ??= (async () => {
    if (await exists(CHROMIUM)) return;
    const installed = await run("apt-get", ["install", "-y", "chromium"]) ||
      (await run("apt-get", ["update"]) && await run("apt-get", ["install", "-y", "chromium"]));
    if (!installed || !(await exists(CHROMIUM))) {
      throw new Error(
        "Cannot run browser tests: /usr/bin/chromium is missing and `apt-get install -y chromium` failed; install it as root",
      );
    }
  })();
  return installing;
}

/** Starts headless Chromium; close it when the test file is done. */
export async function launchBrowser(): Promise<Browser> {
  await ensureChromium();
  return await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** An axe-core finding. */
export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

let axeSource: Promise<string> | undefined;

/**
 * Runs axe-core in the page and returns its serious and critical violations. The script is
 * evaluated through the DevTools protocol: the page's CSP (rightly) refuses injected script tags.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  axeSource ??= Deno.readTextFile(AXE);
  await page.evaluate(await axeSource);
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const inPage = globalThis as any;
    const result = await inPage.axe.run(inPage.document, { resultTypes: ["violations"] });
    // deno-lint-ignore no-explicit-any
    return result.violations.filter((v: any) => v.impact === "serious" || v.impact === "critical")
      // deno-lint-ignore no-explicit-any
      .map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        // deno-lint-ignore no-explicit-any
        targets: v.nodes.map((n: any) => String(n.target)),
      }));
  });
}
