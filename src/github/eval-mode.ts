import { relative, sep } from "node:path";
import { formatAccuracy, llmOverrides, type ModeContext } from "./mode-context.js";
import { publishArtifact, withRolloutCache } from "./run-services.js";
import { logGroup } from "./summary.js";

/** `mode: eval`: evaluate the checked-out harness on the held-out split and report it. */
export async function runEvalMode(context: ModeContext): Promise<void> {
  const { engine, options, report } = context;
  const facts = await engine.describe({ configPath: context.configPath });
  const outcome = await withRolloutCache(context, facts, () =>
    logGroup("eval", () =>
      engine.eval({
        configPath: context.configPath,
        outDir: context.outDir,
        llm: llmOverrides(options),
        concurrency: options.concurrency,
      }),
    ),
  );
  report.summaryMarkdown = outcome.summaryMarkdown;
  report.setAll({
    "final-heldout-accuracy": formatAccuracy(outcome.accuracy),
    "report-path": outcome.reportPath,
  });
  const root = context.run.workspace;
  await publishArtifact(
    context,
    outcome.outDir,
    relative(root, facts.harnessDir).split(sep).join("/"),
  );
}
