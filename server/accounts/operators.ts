/** Who may act as an operator on the site. */
import type { Config } from "../config.ts";

/** Whether the address is one of OPERATOR_EMAILS. */
export function isOperatorAddress(config: Config, email: string): boolean {
  return config.operatorEmails.includes(email);
}

/**
 * Operator rights need both the address in OPERATOR_EMAILS and proof that the account holds the
 * operator key, since anyone could sign up first with an operator's address.
 */
export function isOperator(
  config: Config,
  account: { email: string; operator_confirmed_at: Date | null },
): boolean {
  return isOperatorAddress(config, account.email) && account.operator_confirmed_at !== null;
}
