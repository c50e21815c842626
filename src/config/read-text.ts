import { readFile } from "node:fs/promises";
import { InputError } from "../errors/input-error.js";

/**
 * Reads a file the user wrote (config, tasks) as UTF-8 text. Bytes that are not valid UTF-8 are
 * an InputError naming the byte offset and line (Node's default decoding would silently turn
 * them into U+FFFD and the run would go on with text nobody wrote); a file over `maxBytes` is
 * refused before it is decoded; a missing file or a folder is named as such.
 */
export async function readUserText(input: {
  file: string;
  /** What the file is, for messages ("config", "tasks file"). */
  what: string;
  maxBytes: number;
}): Promise<string> {
  const { file, what, maxBytes } = input;
  let buffer: Buffer;
  try {
    buffer = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === "ENOENT"
        ? `${what} not found`
        : code === "EISDIR"
          ? `${what} is a folder, not a file`
          : `cannot read the ${what} (${code ?? String(error)})`;
    throw new InputError(file, problem);
  }
  if (buffer.byteLength > maxBytes) {
    throw new InputError(
      file,
      `the ${what} is ${buffer.byteLength} bytes; at most ${maxBytes} bytes are accepted`,
    );
  }
  return decodeUtf8({ file, buffer, what });
}

/** Strict UTF-8 decoding; the first invalid byte is reported with its offset and line. */
export function decodeUtf8(input: { file: string; buffer: Buffer; what: string }): string {
  const { file, buffer } = input;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch {
    const offset = firstInvalidByte(buffer);
    const line = buffer.subarray(0, offset).filter((byte) => byte === 0x0a).length + 1;
    const byte = buffer[offset]?.toString(16).padStart(2, "0") ?? "??";
    throw new InputError(
      file,
      `byte ${offset} (0x${byte}) is not valid UTF-8; save the ${input.what} as UTF-8`,
      { line },
    );
  }
}

/** Offset of the first byte that starts no valid UTF-8 sequence. */
function firstInvalidByte(buffer: Buffer): number {
  let index = 0;
  while (index < buffer.length) {
    const length = sequenceLength(buffer, index);
    if (length === 0) return index;
    index += length;
  }
  return buffer.length;
}

/** Length of the valid UTF-8 sequence at `index`, or 0 when none starts there. */
function sequenceLength(buffer: Buffer, index: number): number {
  const first = buffer[index];
  if (first < 0x80) return 1;
  const [length, low, high] =
    first >= 0xc2 && first <= 0xdf
      ? [2, 0x80, 0xbf]
      : first === 0xe0
        ? [3, 0xa0, 0xbf]
        : first === 0xed
          ? [3, 0x80, 0x9f]
          : first >= 0xe1 && first <= 0xef
            ? [3, 0x80, 0xbf]
            : first === 0xf0
              ? [4, 0x90, 0xbf]
              : first >= 0xf1 && first <= 0xf3
                ? [4, 0x80, 0xbf]
                : first === 0xf4
                  ? [4, 0x80, 0x8f]
                  : [0, 0, 0];
  if (length === 0 || index + length > buffer.length) return 0;
  const second = buffer[index + 1];
  if (second < low || second > high) return 0;
  for (let offset = 2; offset < length; offset++) {
    const next = buffer[index + offset];
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}
