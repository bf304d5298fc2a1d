/** A record that did not get stored, and why. */
export interface Problem {
  location: string;
  kind: "invalid" | "rejected" | "skipped" | "warning" | "not_sent";
  message: string;
}
