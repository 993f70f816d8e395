// A histogram as a row of bars, each a link (to the rollouts in its range) or a plain bar, labelled for screen readers.
import type { Histogram, HistogramBin } from "../../../../contracts/job-views.js";
import { formatNumber, h } from "./dom.js";

export interface HistogramOptions {
  title: string;
  /** What one count is ("rollouts", "tasks"). */
  unit: string;
  /** Where a bar leads, if anywhere. */
  link?: (bin: HistogramBin, last: boolean) => string;
}

export function histogramFigure(histogram: Histogram, options: HistogramOptions): HTMLElement {
  const tallest = Math.max(1, ...histogram.bins.map((bin) => bin.count));
  const bars = histogram.bins.map((bin, i) => {
    const last = i === histogram.bins.length - 1;
    const range = `${formatNumber(bin.from)}–${formatNumber(bin.to)}`;
    const label = `${range}: ${bin.count} ${options.unit}`;
    const fill = h("span", { class: "fill" });
    fill.style.height = `${(bin.count / tallest) * 100}%`;
    const count = h("span", { class: "count", "aria-hidden": "true" }, bin.count ? String(bin.count) : "");
    const href = options.link && bin.count > 0 ? options.link(bin, last) : undefined;
    const bar = href
      ? h("a", { class: "bar", href, "aria-label": label, title: label }, count, fill)
      : h("span", { class: "bar", role: "img", "aria-label": label, title: label }, count, fill);
    return h("li", {}, bar, h("span", { class: "tick", "aria-hidden": "true" }, formatNumber(bin.from, 2)));
  });
  return h(
    "figure",
    { class: "histogram" },
    h(
      "figcaption",
      {},
      h("strong", {}, options.title),
      ` · ${histogram.count} ${options.unit} · mean ${formatNumber(histogram.mean)} · min ${formatNumber(histogram.min)} · max ${formatNumber(histogram.max)}`,
    ),
    h("ol", { class: "bars" }, bars),
  );
}
