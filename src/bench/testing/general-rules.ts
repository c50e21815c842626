/**
 * Rules a reviewer would call general, as a capable refiner writes them for the bundled worlds'
 * task families (arithmetic, unit conversion, dates, registry look-ups, extraction) and for any
 * agent: the facts and procedures the families need, tool use, answer format — no task's names,
 * no task's numbers but the facts themselves (1000 grams in a kilogram, the weekdays in order).
 * bench/general-rules.ts reports how many the guards refuse on every bundled world × seed, and
 * test/reliability/general-rules.test.ts asserts none is refused on the contexts that once did.
 */
export const generalRules = [
  // Arithmetic procedures and conventions.
  "Use the calculator for every multiplication, then subtract what is spent.",
  "When something is saved every week for several weeks, multiply the weekly amount by the number of weeks first.",
  "When items come in boxes, multiply the number of boxes by the items in each box before adding other items.",
  "When the rest is shared equally, subtract what is given away first, then divide by the number of shares.",
  "Round only at the end of a calculation, never in between.",
  "Do multiplication and division before addition and subtraction unless parentheses say otherwise.",
  "Check a division by multiplying the result back; an equal share must come out whole.",
  "Percent means per hundred: 25% of a value is the value times 0.25.",
  "Half is 0.5, a quarter is 0.25 and a third is about 0.333.",
  "A dozen is 12 and a score is 20.",
  // Units.
  "A kilogram is 1000 grams; multiply kilograms by 1000 to get grams.",
  "A kilometre is 1000 metres and a metre is 100 centimetres.",
  "A litre is 1000 millilitres.",
  "A mile is about 1609 metres; a pound is about 454 grams.",
  "A foot is 12 inches and a yard is 3 feet; an inch is 2.54 centimetres.",
  "An hour has 60 minutes and 3600 seconds; a day has 24 hours and 1440 minutes.",
  "To turn hours and minutes into minutes, multiply the hours by 60 and add the minutes.",
  "To turn kilometres and metres into metres, multiply the kilometres by 1000 and add the metres.",
  "To find what is left of a length, convert both parts to the smaller unit before subtracting.",
  "A tonne is 1000 kilograms and a gram is 1000 milligrams.",
  "Convert every quantity to the unit the question asks for before adding them up.",
  // Dates and the calendar.
  "A week has 7 days; a common year has 365 days and a leap year 366.",
  "The weekdays in order are Monday, Tuesday, Wednesday, Thursday, Friday, Saturday and Sunday.",
  "To find the weekday N days after a date, find the date's weekday and count forward N modulo 7 days.",
  "Months have 31 days except April, June, September and November (30) and February (28, or 29 in a leap year).",
  "A year divisible by 4 is a leap year, except years divisible by 100 but not by 400.",
  "When adding days to a date, move month by month and carry over into the next month and year.",
  "Write dates as YYYY-MM-DD with a zero before a single-digit month or day.",
  "January 1st of 2000 was a Saturday; count from a known weekday when no calendar tool is given.",
  "The day after 28 February is 29 February in a leap year and 1 March otherwise.",
  // Registry look-ups and tool use.
  "For registry questions, resolve one relation at a time (employer, then headquarters, then mayor) with the lookup tool.",
  "Read a chain like 'the mentor of the mentor of' from the inside out: look up the innermost relation first.",
  "Look each name up exactly as it is written; if the lookup finds nothing, try the spelling without accents.",
  "If a tool call returns an error, read the message, fix the arguments and call the tool again.",
  "Call the lookup tool with one name at a time, not a whole sentence.",
  "Do not call a tool again with the same arguments after it has answered.",
  "Stop calling tools once the question is answered and give the final answer.",
  // Extraction.
  "In a shipping note, copy the tracking code exactly as written, letters, dash and digits.",
  "Answer extraction questions with the value as the note writes it, keeping decimals.",
  "When a note mentions several parcels, use the one that belongs to the person the question names.",
  // Answer format and process.
  "Give weights and lengths as a plain number in the unit the question asks for, without the unit.",
  "Answer with the number only: no thousands separators and no units.",
  "End with a final line 'Answer: <value>' and nothing after it.",
  "Give a name as the registry writes it, with both words capitalised.",
  "Keep the task statement in view: re-read the question before giving the final answer.",
  "Ignore background notes about the archive; they never change the answer.",
  "If two readings of a question are possible, take the one the numbers in it support.",
] as const;

/**
 * Worked examples with round made-up numbers, as a refiner illustrates a procedure: general
 * too, but written in a family's own template, so a task whose numbers they happen to share in
 * the same places reads as copied (docs/guards.md gives the measured rate).
 */
export const workedExamples = [
  "Example: 2 hours and 30 minutes is 2 × 60 + 30 = 150 minutes.",
  "Example: 3 kilometres and 250 metres is 3 × 1000 + 250 = 3250 metres.",
  "Example: a rope 10 feet long is 120 inches; cutting off 20 inches leaves 100 inches.",
  "Example: saving 5 coins a week for 4 weeks gives 20 coins; spending 8 of them leaves 12.",
  "Example: 2.5 kilograms is 2500 grams.",
  "Example: 2024-02-27 plus 3 days is 2024-03-01, because 2024 is a leap year.",
  "Example: 4 boxes of 6 jars are 24 jars; shared among 3 stalls, each gets 8.",
] as const;
