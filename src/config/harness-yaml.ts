import { InputError } from "../errors/input-error.js";
import { type HarnessConfig, harnessConfigSchema } from "./harness-schema.js";
import { hasNestedQuantifier } from "./regex-safety.js";
import { parseLocatedYaml, validateLocated } from "./yaml-document.js";

/**
 * Parses and validates the text of a `harness.yaml`. YAML syntax errors and schema violations
 * become an InputError naming the file, the line and the dotted field (every violation is
 * listed; an unknown key is called out as a likely typo), as for `ecdysis.yml`.
 */
export function parseHarnessYaml(file: string, text: string): HarnessConfig {
  const located = parseLocatedYaml(file, text);
  const document = { ...located, value: located.value ?? {} };
  const parsed = validateLocated({ file, located: document, schema: harnessConfigSchema });
  const path = ["completion", "answer_pattern"];
  const where = { line: located.lineOf(path), field: path.join(".") };
  try {
    new RegExp(parsed.completion.answer_pattern);
  } catch (error) {
    throw new InputError(
      file,
      `not a valid regular expression: ${(error as Error).message}`,
      where,
    );
  }
  if (hasNestedQuantifier(parsed.completion.answer_pattern))
    throw new InputError(
      file,
      "the pattern repeats a group that itself repeats (like (a+)+), which can backtrack for minutes on a long reply; write it without the nested repetition",
      where,
    );
  return parsed;
}
