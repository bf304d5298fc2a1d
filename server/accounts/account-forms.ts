/** What the sign-up and sign-in forms accept. */
import { z } from "zod";

export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 1024;

const email = z.string().trim().toLowerCase()
  .max(254, { message: "That email address is too long." })
  .pipe(z.email({ message: "Enter an email address, such as ada@example.org." }));

export const SignUpForm = z.object({
  email,
  password: z.string()
    .min(MIN_PASSWORD_LENGTH, {
      message: `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`,
    })
    .max(MAX_PASSWORD_LENGTH, {
      message: `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`,
    }),
});

export const SignInForm = z.object({
  email,
  password: z.string().min(1, { message: "Enter your password." })
    .max(MAX_PASSWORD_LENGTH, { message: "Email address or password is wrong." }),
});

/** The messages of a failed parse, one per problem. */
export function formProblems(error: z.ZodError): string[] {
  return [...new Set(error.issues.map((issue) => issue.message))];
}
