/**
 * Whether a regular expression repeats a group that itself repeats (`(a+)+`, `(\w*\s?)*`,
 * `(x|y+){2,}`): the shape behind catastrophic backtracking, which would hang answer
 * extraction on a long output. JavaScript cannot time a regex out, so such patterns are refused.
 */
export function hasNestedQuantifier(pattern: string): boolean {
  // For each open group: whether a quantifier occurred inside it.
  const groups: boolean[] = [];
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === "\\") {
      index++;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "(") groups.push(false);
    else if (char === ")") {
      const repeatsInside = groups.pop() ?? false;
      const next = pattern[index + 1];
      const repeated = next === "*" || next === "+" || next === "{";
      if (repeatsInside && repeated) return true;
      if (groups.length > 0 && (repeatsInside || repeated)) groups[groups.length - 1] = true;
    } else if ((char === "*" || char === "+" || char === "{") && groups.length > 0) {
      groups[groups.length - 1] = true;
    }
  }
  return false;
}
