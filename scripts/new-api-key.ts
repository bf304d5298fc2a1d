/** Prints a fresh, well-formed API key, e.g. for ADMIN_API_KEY: `npm run -s new-key`. */
import { generateApiKey } from "../shared/api-key-format.ts";

console.log(generateApiKey());
