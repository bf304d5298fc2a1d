/**
 * Questions about the real conferences of tests/fixtures/conference-data/ for
 * scripts/eval-search.ts, each judged against a topic file's labels: every conference of that
 * topic is a right answer. A "literal" query names the topic; a "paraphrased" one describes it
 * without any of its words, so only meaning can connect them; a "place_time" one names a topic and a
 * place or a way of attending, and only the topic's conferences there answer it.
 */
import type { JudgedQuery, Narrowing } from "./support/eval-kinds.ts";

/** [query, kind, topic file] */
const TOPIC_QUERIES: [string, "literal" | "paraphrased", string][] = [
  ["data", "literal", "data"],
  ["devops", "literal", "devops"],
  ["javascript", "literal", "javascript"],
  ["security", "literal", "security"],
  ["open source", "literal", "opensource"],
  ["networking", "literal", "networking"],
  ["java", "literal", "java"],
  ["php", "literal", "php"],
  ["ux", "literal", "ux"],
  ["product", "literal", "product"],
  ["testing", "literal", "testing"],
  ["api", "literal", "api"],
  ["leadership", "literal", "leadership"],
  [".NET", "literal", "dotnet"],
  ["python", "literal", "python"],
  ["typescript", "literal", "typescript"],
  ["sre", "literal", "sre"],
  ["performance", "literal", "performance"],
  ["rust", "literal", "rust"],
  ["android", "literal", "android"],
  ["ios", "literal", "ios"],
  ["accessibility", "literal", "accessibility"],
  ["kotlin", "literal", "kotlin"],
  ["css", "literal", "css"],
  ["iot", "literal", "iot"],
  ["graphql", "literal", "graphql"],
  ["analytics, databases and machine intelligence", "paraphrased", "data"],
  ["continuous delivery and infrastructure automation", "paraphrased", "devops"],
  ["web frameworks like React, Vue and Node", "paraphrased", "javascript"],
  ["hackers, vulnerabilities and cyber defence", "paraphrased", "security"],
  ["free software communities and their maintainers", "paraphrased", "opensource"],
  ["meeting peers and making professional contacts", "paraphrased", "networking"],
  ["the JVM and the Spring ecosystem", "paraphrased", "java"],
  ["Laravel, Symfony and WordPress backends", "paraphrased", "php"],
  ["user research and interface design", "paraphrased", "ux"],
  ["roadmaps, discovery and agile ownership of what gets built", "paraphrased", "product"],
  ["quality assurance and finding bugs before release", "paraphrased", "testing"],
  ["designing web service interfaces and REST endpoints", "paraphrased", "api"],
  ["managing engineering teams and growing as a CTO", "paraphrased", "leadership"],
  ["C# and Microsoft's developer platform", "paraphrased", "dotnet"],
  ["Django, pandas and PyData", "paraphrased", "python"],
  ["statically typed JavaScript", "paraphrased", "typescript"],
  ["site reliability, on-call and incident response", "paraphrased", "sre"],
  ["making websites load faster and scale", "paraphrased", "performance"],
  ["memory-safe systems programming with cargo", "paraphrased", "rust"],
  ["Google's mobile operating system and its apps", "paraphrased", "android"],
  ["building iPhone apps with Swift", "paraphrased", "ios"],
  ["inclusive design and assistive technology", "paraphrased", "accessibility"],
  ["JetBrains' language for multiplatform apps", "paraphrased", "kotlin"],
  ["styling web pages: layouts, colours and design tokens", "paraphrased", "css"],
  ["connected devices, sensors and embedded hardware", "paraphrased", "iot"],
  ["query languages for web services with schemas and resolvers", "paraphrased", "graphql"],
];

/** [query, topic file, where] */
const PLACE_QUERIES: [string, string, Narrowing][] = [
  ["data conferences in Berlin", "data", { city: "Berlin" }],
  ["data conferences in Munich", "data", { city: "Munich" }],
  ["security conference in Berlin", "security", { city: "Berlin" }],
  ["javascript conferences in Amsterdam", "javascript", { city: "Amsterdam" }],
  ["data events in London", "data", { city: "London" }],
  ["devops in Berlin", "devops", { city: "Berlin" }],
  ["devops conferences in London", "devops", { city: "London" }],
  ["javascript London", "javascript", { city: "London" }],
  ["data conferences in Paris", "data", { city: "Paris" }],
  ["networking events in Berlin", "networking", { city: "Berlin" }],
  ["javascript conferences in Paris", "javascript", { city: "Paris" }],
  ["api conference in Berlin", "api", { city: "Berlin" }],
  ["ux conferences in Berlin", "ux", { city: "Berlin" }],
  ["open source in Berlin", "opensource", { city: "Berlin" }],
  ["data conferences in Germany", "data", { country: "Germany" }],
  ["security events in Germany", "security", { country: "Germany" }],
  ["devops conferences in Germany", "devops", { country: "Germany" }],
  ["javascript conferences in Germany", "javascript", { country: "Germany" }],
  ["open source conferences in Germany", "opensource", { country: "Germany" }],
  ["data conferences in the Netherlands", "data", { country: "Netherlands" }],
  ["javascript in the Netherlands", "javascript", { country: "Netherlands" }],
  ["php conferences in France", "php", { country: "France" }],
  ["data conferences in Spain", "data", { country: "Spain" }],
  ["java conferences in Germany", "java", { country: "Germany" }],
  [".NET conferences in Germany", "dotnet", { country: "Germany" }],
  ["ux conferences in Germany", "ux", { country: "Germany" }],
  ["online security conferences", "security", { online: true }],
  ["online data conferences", "data", { online: true }],
];

/** Every conference query, judged by the topic files. */
export const CONFERENCE_QUERIES: JudgedQuery[] = [
  ...TOPIC_QUERIES.map(([q, kind, topic]) => ({ q, kind, topic })),
  ...PLACE_QUERIES.map(([q, topic, narrow]) => ({
    q,
    kind: "place_time" as const,
    topic,
    narrow,
  })),
];
