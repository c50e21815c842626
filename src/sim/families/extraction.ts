import type { Rng } from "../draw.js";
import type { NameBook } from "../names.js";
import { formatNumber, type GeneratedItem, numericScorer, type Problem } from "./problem.js";

const fields = {
  "tracking code": /The tracking code is ([A-Z]{2}-\d{4})\./,
  destination: /It is bound for ([A-Z][a-z]+)\./,
  "weight in kg": /It weighs (\d+(?:\.\d+)?) kg\./,
  "client organisation": /on behalf of ([A-Z][a-z]+ [A-Z][a-z]+)\./,
} as const;
type Field = keyof typeof fields;
const fieldNames = Object.keys(fields) as Field[];

const questionPattern = new RegExp(
  `^Shipping note: ([\\s\\S]+) Question: what is the (${fieldNames.join("|")}) of ([A-Z][a-z]+ [A-Z][a-z]+)'s parcel\\?$`,
);

/** Generates a shipping note and asks for one of its fields. */
export function generateExtraction(rng: Rng, names: NameBook): GeneratedItem {
  const sender = names.person();
  const letters = "ABCDEFGHJKLMNPQRSTUVWXYZ";
  const code = `${rng.pick([...letters])}${rng.pick([...letters])}-${rng.int(1000, 9999)}`;
  const weight = formatNumber(rng.int(5, 500) / 10);
  const values: Record<Field, string> = {
    "tracking code": code,
    destination: names.place(),
    "weight in kg": weight,
    "client organisation": names.organisation(),
  };
  const sentences = [
    `${sender} sent the parcel on behalf of ${values["client organisation"]}.`,
    `It weighs ${weight} kg.`,
    `The tracking code is ${code}.`,
    `It is bound for ${values.destination}.`,
  ];
  const body = [sentences[0], ...shuffle(rng, sentences.slice(1))].join(" ");
  const field = rng.pick(fieldNames);
  const question = `Shipping note: ${body} Question: what is the ${field} of ${sender}'s parcel?`;
  const numeric = field === "weight in kg";
  return {
    question,
    expected: numeric ? Number(weight) : values[field],
    keyPhrase: sender,
    scorer: numeric ? numericScorer : undefined,
  };
}

/** Reads the asked field out of a shipping note; null when the text is not one. */
export function parseExtraction(text: string): Problem | null {
  const match = questionPattern.exec(text.trim());
  if (!match) return null;
  const [, body, field, sender] = match;
  const found = fieldNames.map((name) => [name, fields[name].exec(body)?.[1]] as const);
  const answer = found.find(([name]) => name === field)?.[1];
  if (answer === undefined) return null;
  const decoys = found
    .filter(([name, value]) => name !== field && value !== undefined)
    .map(([, value]) => value as string);
  return {
    kind: "direct",
    family: "extraction",
    keyPhrase: sender,
    answer,
    numeric: field === "weight in kg",
    decoys,
  };
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
