import type { Rng } from "../draw.js";
import type { NameBook } from "../names.js";
import type { GeneratedItem, Problem } from "./problem.js";

const weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const day = 86_400_000;

/** Adds days to an ISO date (UTC). */
function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * day).toISOString().slice(0, 10);
}

/** The English weekday of an ISO date. */
function weekdayOf(iso: string): string {
  return weekdays[new Date(`${iso}T00:00:00Z`).getUTCDay()];
}

const datePattern =
  /^([A-Z][a-z]+ [A-Z][a-z]+) signed the lease on (\d{4}-\d{2}-\d{2})\. The inspection is (\d+) days (later|earlier)\. On what date \(YYYY-MM-DD\) is the inspection\?$/;
const weekdayPattern =
  /^([A-Z][a-z]+ [A-Z][a-z]+)'s harvest fair opens on (\d{4}-\d{2}-\d{2})\. On which weekday does it close, (\d+) days later\?$/;

/** Generates a date-arithmetic question (ISO date or weekday answer). */
export function generateDateReasoning(rng: Rng, names: NameBook): GeneratedItem {
  const who = names.person();
  const start = addDays("2021-01-01", rng.int(0, 1500));
  const days = rng.int(3, 200);
  if (rng.next() < 0.5) {
    const direction = rng.next() < 0.7 ? "later" : "earlier";
    const question = `${who} signed the lease on ${start}. The inspection is ${days} days ${direction}. On what date (YYYY-MM-DD) is the inspection?`;
    return {
      question,
      expected: addDays(start, direction === "later" ? days : -days),
      keyPhrase: who,
    };
  }
  const question = `${who}'s harvest fair opens on ${start}. On which weekday does it close, ${days} days later?`;
  return { question, expected: weekdayOf(addDays(start, days)), keyPhrase: who };
}

/** Parses a date question and computes its answer; null when the text is not one. */
export function parseDateReasoning(text: string): Problem | null {
  const trimmed = text.trim();
  const dated = datePattern.exec(trimmed);
  if (dated) {
    const days = Number(dated[3]) * (dated[4] === "later" ? 1 : -1);
    return {
      kind: "direct",
      family: "date-reasoning",
      keyPhrase: dated[1],
      answer: addDays(dated[2], days),
      numeric: false,
      decoys: [addDays(dated[2], days + 1)],
    };
  }
  const weekday = weekdayPattern.exec(trimmed);
  if (weekday) {
    const answer = weekdayOf(addDays(weekday[2], Number(weekday[3])));
    const decoy = weekdayOf(addDays(weekday[2], Number(weekday[3]) + 1));
    return {
      kind: "direct",
      family: "date-reasoning",
      keyPhrase: weekday[1],
      answer,
      numeric: false,
      decoys: [decoy],
    };
  }
  return null;
}
