/**
 * A user's own agent, as a Node script for a command harness: it reads its system prompt from
 * the one editable file of its harness folder (`prompts/system.md` under ECDYSIS_HARNESS_DIR)
 * and calls the run's model over HTTP (ECDYSIS_BASE_URL, ECDYSIS_MODEL, the key in OPENAI_API_KEY
 * — the model gateway's token for the rollout) with the task's sample index as the request seed.
 * Tests write it into a harness folder as `agent.js`.
 */
export const promptFileAgentScript = `
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", async () => {
  const task = JSON.parse(input);
  const system = readFileSync(join(process.env.ECDYSIS_HARNESS_DIR, "prompts", "system.md"), "utf8");
  const reply = await fetch(process.env.ECDYSIS_BASE_URL + "/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer " + (process.env.OPENAI_API_KEY || "unused") },
    body: JSON.stringify({
      model: process.env.ECDYSIS_MODEL,
      temperature: 0,
      seed: task.sampleIndex,
      messages: [{ role: "system", content: system }, { role: "user", content: task.input }],
    }),
  }).then((response) => response.json());
  process.stdout.write(JSON.stringify({ output: reply.choices[0].message.content }));
});`;
