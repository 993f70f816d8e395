// The bench's chart as plain SVG (no charting dependency): a grid of panels, each bars or lines, with a target line where
// the issue sets one.
import type { Point } from "./report.js";

export interface Bar {
  label: string;
  value: number | null;
  /** A second value drawn beside it (e.g. p99 beside p50). */
  second?: number | null;
}

export interface Line {
  label: string;
  points: Point[];
}

export type Panel =
  | { kind: "bars"; title: string; unit: string; bars: Bar[]; secondLabel?: string; firstLabel?: string; target?: number; targetLabel?: string }
  | { kind: "lines"; title: string; unit: string; xUnit: string; lines: Line[]; target?: number; targetLabel?: string };

const WIDTH = 520;
const HEIGHT = 290;
const MARGIN = { left: 62, right: 16, top: 38, bottom: 66 };
const COLORS = ["#2563eb", "#ea580c", "#16a34a", "#9333ea", "#dc2626", "#0891b2"];

const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A round step for about `n` ticks up to `max`. */
function step(max: number, n = 5): number {
  const raw = max / n;
  const magnitude = 10 ** Math.floor(Math.log10(raw || 1));
  for (const f of [1, 2, 2.5, 5, 10]) if (raw <= f * magnitude) return f * magnitude;
  return 10 * magnitude;
}

function format(x: number): string {
  if (x === 0) return "0";
  if (Math.abs(x) >= 10_000) return `${(x / 1000).toFixed(0)}k`;
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1).replace(/\.0$/, "");
  return x.toFixed(2).replace(/0$/, "").replace(/\.0$/, "");
}

function yAxis(out: string[], max: number, unit: string, plotH: number): (v: number) => number {
  const tick = step(max);
  const top = Math.ceil(max / tick) * tick || 1;
  const y = (v: number) => MARGIN.top + plotH - (v / top) * plotH;
  for (let v = 0; v <= top + 1e-9; v += tick) {
    out.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${MARGIN.left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11" fill="#4b5563">${format(v)}</text>`);
  }
  out.push(
    `<text x="14" y="${MARGIN.top + plotH / 2}" font-size="11" fill="#4b5563" transform="rotate(-90 14 ${MARGIN.top + plotH / 2})" text-anchor="middle">${xml(unit)}</text>`,
  );
  return y;
}

function target(out: string[], y: (v: number) => number, value: number | undefined, label: string | undefined): void {
  if (value === undefined) return;
  out.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(value)}" y2="${y(value)}" stroke="#dc2626" stroke-dasharray="5 4"/>`);
  out.push(
    `<text x="${WIDTH - MARGIN.right - 2}" y="${y(value) - 4}" text-anchor="end" font-size="10" fill="#dc2626">${xml(label ?? `target ${format(value)}`)}</text>`,
  );
}

function panel(p: Panel): string {
  const out: string[] = [];
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  out.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="white" stroke="#d1d5db"/>`);
  out.push(`<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="13" font-weight="600" fill="#111827">${xml(p.title)}</text>`);
  if (p.kind === "bars") {
    const values = p.bars.flatMap((b) => [b.value ?? 0, b.second ?? 0]);
    const y = yAxis(out, Math.max(...values, p.target ?? 0) * 1.1, p.unit, plotH);
    const slot = plotW / Math.max(1, p.bars.length);
    const pair = p.bars.some((b) => b.second !== undefined);
    const barW = Math.min(56, slot * (pair ? 0.36 : 0.6));
    p.bars.forEach((bar, i) => {
      const center = MARGIN.left + slot * (i + 0.5);
      const draw = (value: number | null | undefined, x: number, color: string) => {
        if (value === null || value === undefined) {
          out.push(`<text x="${x + barW / 2}" y="${y(0) - 6}" text-anchor="middle" font-size="10" fill="#6b7280">n/a</text>`);
          return;
        }
        out.push(`<rect x="${x}" y="${y(value)}" width="${barW}" height="${Math.max(0, y(0) - y(value))}" fill="${color}"/>`);
        out.push(`<text x="${x + barW / 2}" y="${y(value) - 4}" text-anchor="middle" font-size="10" fill="#111827">${format(value)}</text>`);
      };
      if (pair) {
        draw(bar.value, center - barW - 2, COLORS[0]!);
        draw(bar.second, center + 2, COLORS[1]!);
      } else draw(bar.value, center - barW / 2, COLORS[i % COLORS.length]!);
      out.push(`<text x="${center}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle" font-size="11" fill="#374151">${xml(bar.label)}</text>`);
    });
    if (pair) {
      out.push(
        `<rect x="${MARGIN.left}" y="${HEIGHT - 18}" width="10" height="10" fill="${COLORS[0]}"/><text x="${MARGIN.left + 14}" y="${HEIGHT - 9}" font-size="10">${xml(p.firstLabel ?? "")}</text>`,
      );
      out.push(
        `<rect x="${MARGIN.left + 170}" y="${HEIGHT - 18}" width="10" height="10" fill="${COLORS[1]}"/><text x="${MARGIN.left + 184}" y="${HEIGHT - 9}" font-size="10">${xml(p.secondLabel ?? "")}</text>`,
      );
    }
    target(out, y, p.target, p.targetLabel);
  } else {
    const all = p.lines.flatMap((l) => l.points);
    const maxX = Math.max(1, ...all.map((pt) => pt.t));
    const y = yAxis(out, Math.max(1, ...all.map((pt) => pt.v), p.target ?? 0) * 1.1, p.unit, plotH);
    const xTick = step(maxX);
    const xTop = Math.ceil(maxX / xTick) * xTick;
    const x = (t: number) => MARGIN.left + (t / xTop) * plotW;
    for (let t = 0; t <= xTop + 1e-9; t += xTick) {
      out.push(`<text x="${x(t)}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle" font-size="11" fill="#4b5563">${format(t)}</text>`);
    }
    out.push(
      `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - MARGIN.bottom + 32}" text-anchor="middle" font-size="11" fill="#4b5563">${xml(p.xUnit)}</text>`,
    );
    p.lines.forEach((line, i) => {
      if (line.points.length === 0) return;
      const color = COLORS[i % COLORS.length]!;
      const d = line.points.map((pt, j) => `${j === 0 ? "M" : "L"}${x(pt.t).toFixed(1)},${y(pt.v).toFixed(1)}`).join(" ");
      out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`);
      const lx = MARGIN.left + 4 + (i % 3) * 150;
      const ly = HEIGHT - 10 + Math.floor(i / 3) * 12 - (p.lines.length > 3 ? 8 : 0);
      out.push(
        `<rect x="${lx}" y="${ly - 8}" width="10" height="3" fill="${color}"/><text x="${lx + 14}" y="${ly - 3}" font-size="10">${xml(line.label)}</text>`,
      );
    });
    target(out, y, p.target, p.targetLabel);
  }
  return out.join("");
}

/** The panels in a grid of `columns`, under a title line. */
export function chart(title: string, subtitle: string, panels: Panel[], columns = 2): string {
  const rows = Math.ceil(panels.length / columns);
  const width = columns * WIDTH + (columns + 1) * 10;
  const height = 56 + rows * (HEIGHT + 10);
  const body = panels
    .map((p, i) => `<g transform="translate(${10 + (i % columns) * (WIDTH + 10)}, ${56 + Math.floor(i / columns) * (HEIGHT + 10)})">${panel(p)}</g>`)
    .join("");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#f9fafb"/>`,
    `<text x="12" y="24" font-size="16" font-weight="700" fill="#111827">${xml(title)}</text>`,
    `<text x="12" y="44" font-size="12" fill="#4b5563">${xml(subtitle)}</text>`,
    body,
    "</svg>",
  ].join("\n");
}
