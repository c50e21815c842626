import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { journalEntrySchema } from "../evolve/journal-file.js";
import type { IterationSpend } from "./ceiling.js";

/**
 * Training spend through the end of each iteration, summed from a run's `journal.jsonl` (each
 * finished stage with its own uncached spend; the seed/final measurement left out): what the
 * ceiling's time-to-90%/95% reads in rollouts and LLM calls. Stages before the first iteration
 * (the seed's evaluation) count as iteration 0. Empty when the run kept no journal.
 */
export async function spendByIteration(journalFile: string): Promise<IterationSpend[]> {
  if (!existsSync(journalFile)) return [];
  const totals = new Map<number, IterationSpend>();
  let rollouts = 0;
  let llmCalls = 0;
  for (const line of (await readFile(journalFile, "utf8")).split("\n")) {
    if (line.trim() === "") continue;
    const parsed = journalEntrySchema.safeParse(JSON.parse(line));
    if (!parsed.success) continue; // the header, or a line a kill cut short
    const entry = parsed.data;
    if (entry.measurement || entry.stage.startsWith("final/")) continue;
    rollouts += entry.spend.rollouts ?? 0;
    llmCalls += entry.spend.llmCalls ?? 0;
    const iteration = Number(/^iteration-(\d+)\//.exec(entry.stage)?.[1] ?? 0);
    totals.set(iteration, { iteration, rollouts, llmCalls });
  }
  return [...totals.values()].sort((a, b) => a.iteration - b.iteration);
}
