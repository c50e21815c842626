import type { Rng } from "../draw.js";
import type { NameBook } from "../names.js";
import type { GeneratedItem, Problem } from "./problem.js";

type EntityType = "person" | "organisation" | "place" | "region";
const relationTargets: Record<EntityType, Record<string, EntityType>> = {
  person: { employer: "organisation", mentor: "person", birthplace: "place" },
  organisation: { founder: "person", headquarters: "place" },
  place: { mayor: "person", region: "region" },
  region: {},
};

/** The fictional registry multi-hop tasks are asked over (rendered as knowledge.md). */
export interface KnowledgeBase {
  entries: Map<string, { type: EntityType; relations: Record<string, string> }>;
}

/** Builds a registry with `starts` dedicated start people (one per multi-hop task). */
export function buildKnowledgeBase(
  rng: Rng,
  names: NameBook,
  starts: number,
): { kb: KnowledgeBase; startPeople: string[] } {
  const pool = {
    person: Array.from({ length: 24 }, () => names.person()),
    organisation: Array.from({ length: 10 }, () => names.organisation()),
    place: Array.from({ length: 10 }, () => names.place()),
    region: Array.from({ length: 5 }, () => names.region()),
  };
  const startPeople = Array.from({ length: starts }, () => names.person());
  const entries: KnowledgeBase["entries"] = new Map();
  const add = (name: string, type: EntityType) => {
    const relations: Record<string, string> = {};
    for (const [relation, target] of Object.entries(relationTargets[type])) {
      const candidates = pool[target].filter((candidate) => candidate !== name);
      relations[relation] = rng.pick(candidates);
    }
    entries.set(name, { type, relations });
  };
  for (const type of Object.keys(pool) as EntityType[])
    for (const name of pool[type]) add(name, type);
  for (const name of startPeople) add(name, "person");
  return { kb: { entries }, startPeople };
}

/** Renders the registry in the knowledge-file format of docs/sim-protocol.md §1.4. */
export function renderKnowledge(kb: KnowledgeBase): string {
  const blocks = [...kb.entries.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, entry]) => {
      const lines = Object.entries(entry.relations).map(
        ([relation, value]) => `- ${relation}: ${value}`,
      );
      return [`## ${name}`, `- kind: ${entry.type}`, ...lines].join("\n");
    });
  return `# Registry\n\n${blocks.join("\n\n")}\n`;
}

/** Generates a chain question of exactly `hops` lookups starting at `start`. */
export function generateMultiHop(options: {
  rng: Rng;
  kb: KnowledgeBase;
  start: string;
  hops: number;
}): GeneratedItem {
  const { rng, kb, start, hops } = options;
  const relations: string[] = [];
  let current = start;
  for (let hop = 0; hop < hops; hop++) {
    const entry = kb.entries.get(current);
    if (!entry) throw new Error(`multi-hop: no entry ${current}`);
    const last = hop === hops - 1;
    // Regions end a chain, so only the last hop may reach one.
    const choices = Object.keys(entry.relations).filter(
      (relation) => last || relation !== "region",
    );
    const relation = rng.pick(choices);
    relations.push(relation);
    current = entry.relations[relation];
  }
  const phrase = [...relations].reverse().join(" of the ");
  return {
    question: `Using the registry, what is the ${phrase} of ${start}?`,
    expected: current,
    keyPhrase: start,
    hops,
  };
}

const chainPattern = /^Using the registry, what is the ([a-z ]+) of ([A-Z][a-z]+ [A-Z][a-z]+)\?$/;

/** Parses a chain question into its start entity and relations (in lookup order). */
export function parseMultiHop(text: string): Problem | null {
  const match = chainPattern.exec(text.trim());
  if (!match) return null;
  const relations = match[1].split(" of the ").reverse();
  return { kind: "chain", family: "multi-hop", keyPhrase: match[2], start: match[2], relations };
}

/** Reads `- relation: value` lines out of a lookup result. */
export function readEntry(result: string): Record<string, string> {
  const relations: Record<string, string> = {};
  for (const match of result.matchAll(/^- ([a-z ]+): (.+)$/gm))
    relations[match[1]] = match[2].trim();
  return relations;
}
