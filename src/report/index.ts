/** Reports: Markdown, HTML, PR body, gate comment and job summary, rendered from run records only. */
export { accuracySeries, mermaidAccuracyChart } from "./accuracy-series.js";
export { renderGateComment } from "./gate-comment.js";
export { escapeHtml } from "./html.js";
export { renderJobSummary } from "./job-summary.js";
export {
  defaultPrBodyMaxBytes,
  metadataMarker,
  type PrBodyOptions,
  type PrMetadata,
  parseMetadataBlock,
  renderMetadataBlock,
  renderPrBody,
} from "./pr-body.js";
export { renderHtml } from "./render-html.js";
export { renderMarkdown } from "./render-markdown.js";
export { codeReachSection, sandboxWarning, sandboxWarningLine } from "./sandbox-section.js";
export { scrubSecrets } from "./scrub.js";
export { svgAccuracyChart } from "./svg-chart.js";
export { writeEvolveReports, writeGateReport } from "./write-reports.js";
