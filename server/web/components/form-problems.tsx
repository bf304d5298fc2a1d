/** The problems of a sent form, announced to screen readers and linked from the top. */
import type { FC } from "hono/jsx";

export const FormProblems: FC<{ problems: string[] }> = ({ problems }) =>
  problems.length === 0 ? null : (
    <div class="notice error" role="alert">
      <p>
        <strong>Please fix this:</strong>
      </p>
      <ul>
        {problems.map((problem) => <li key={problem}>{problem}</li>)}
      </ul>
    </div>
  );
