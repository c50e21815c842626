/**
 * Test double of a terminal: applies what the live status writes (`\r`, `\n`, cursor up
 * `ESC[nA`, erase line `ESC[K`, erase below `ESC[J`) to a grid of lines, so a test reads the
 * screen a person would see. Any other escape sequence fails loudly.
 */
export class TerminalScreen {
  readonly lines: string[] = [""];
  private row = 0;
  private column = 0;
  readonly isTTY = true;

  constructor(readonly columns = 100) {}

  write(text: string): boolean {
    let index = 0;
    while (index < text.length) {
      const char = text[index];
      if (char === "\u001b") {
        const match = /^\[(\d*)([AKJ])/.exec(text.slice(index + 1));
        if (!match)
          throw new Error(
            `TerminalScreen: unexpected escape ${JSON.stringify(text.slice(index, index + 8))}`,
          );
        this.escape(match[2], match[1] === "" ? 1 : Number(match[1]));
        index += match[0].length + 1;
        continue;
      }
      if (char === "\r") this.column = 0;
      else if (char === "\n") {
        this.row += 1;
        this.column = 0;
        if (this.row >= this.lines.length) this.lines.push("");
      } else {
        const line = this.lines[this.row].padEnd(this.column, " ");
        this.lines[this.row] = line.slice(0, this.column) + char + line.slice(this.column + 1);
        this.column += 1;
        if (this.column > this.columns) throw new Error(`TerminalScreen: line ${this.row} wrapped`);
      }
      index += 1;
    }
    return true;
  }

  private escape(command: string, count: number): void {
    if (command === "A") this.row = Math.max(0, this.row - count);
    else if (command === "K") this.lines[this.row] = this.lines[this.row].slice(0, this.column);
    else {
      this.lines[this.row] = this.lines[this.row].slice(0, this.column);
      this.lines.length = this.row + 1;
    }
  }

  /** The screen's text lines (trailing empty line dropped). */
  text(): string[] {
    const lines = [...this.lines];
    while (lines.length > 0 && lines.at(-1) === "") lines.pop();
    return lines;
  }
}
