// A small SVG line plot for the MENACE lab: labelled axes with round ticks, one polyline
// per series (colour from a CSS variable, so light and dark themes restyle it, plus a
// dash pattern, so the lines differ without colour), and an HTML legend that wraps on
// narrow screens. No dependencies.

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 420;
const HEIGHT = 210;
const MARGIN = { left: 56, right: 14, top: 10, bottom: 40 };

function el(tag, attrs = {}, text = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

/** About `count` round tick values covering [lo, hi]. */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** Ticks 0, 1, 10, 100, ... up to `hi` for a log10(1 + x) axis. */
export function logTicks(hi) {
  const ticks = [0];
  for (let t = 1; t <= hi; t *= 10) ticks.push(t);
  return ticks;
}

function format(v, percent) {
  if (percent) return `${Math.round(v * 100)}%`;
  if (Math.abs(v) >= 10000) return `${(v / 1000).toLocaleString("en-GB", { maximumFractionDigits: 0 })}k`;
  return v.toLocaleString("en-GB", { maximumFractionDigits: 2 });
}

/**
 * An empty plot that `drawPlot` fills: {root, svg, legend}. The <svg> carries `testid`
 * and a `data-redraws` counter; `title` heads the figure.
 */
export function makePlot(testid, title) {
  const svg = el("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "mw-lab-plot",
    role: "img",
    "aria-label": title,
    "data-testid": testid,
    "data-redraws": 0,
  });
  const heading = document.createElement("h5");
  heading.textContent = title;
  const legend = document.createElement("div");
  legend.className = "mw-lab-legend";
  const root = document.createElement("figure");
  root.className = "mw-lab-figure";
  root.append(heading, svg, legend);
  return { root, svg, legend, legendKey: "" };
}

function drawLegend(plot, series) {
  const key = series.map((s) => s.label).join("|");
  if (key === plot.legendKey) return;
  plot.legendKey = key;
  plot.legend.replaceChildren(
    ...series.map((s) => {
      const item = document.createElement("span");
      item.className = "mw-lab-legend-item";
      const swatch = el("svg", { viewBox: "0 0 24 8", width: 24, height: 8, "aria-hidden": "true" });
      swatch.append(el("line", { x1: 0, x2: 24, y1: 4, y2: 4, stroke: s.colour, "stroke-width": 3, "stroke-dasharray": s.dash ?? "none" }));
      item.append(swatch, document.createTextNode(` ${s.label}`));
      return item;
    }),
  );
}

/**
 * Redraw a plot: spec = {xLabel, yLabel, logX, percent (y as %), yMin, yMax (optional
 * fixed range), series: [{label, x: [...], y: [...], colour: "var(--...)", dash}]}.
 */
export function drawPlot(plot, spec) {
  const svg = plot.svg;
  const series = spec.series.filter((s) => s.x.length > 0);
  const xs = series.flatMap((s) => s.x);
  const ys = series.flatMap((s) => s.y);
  const x0 = 0;
  const x1 = Math.max(1, ...xs);
  let y0 = spec.yMin ?? Math.min(0, ...ys);
  let y1 = spec.yMax ?? Math.max(1, ...ys);
  if (y1 - y0 < 1e-9) {
    y0 -= 1;
    y1 += 1;
  }
  const pw = WIDTH - MARGIN.left - MARGIN.right;
  const ph = HEIGHT - MARGIN.top - MARGIN.bottom;
  // Log scale: log10(1 + games), so that game 0 sits on the axis and the first games get room.
  const fx = spec.logX ? (v) => Math.log10(1 + v) : (v) => v;
  const sx = (v) => MARGIN.left + ((fx(v) - fx(x0)) / (fx(x1) - fx(x0))) * pw;
  const sy = (v) => MARGIN.top + (1 - (v - y0) / (y1 - y0)) * ph;
  const nodes = [];
  for (const t of niceTicks(y0, y1, 4)) {
    nodes.push(el("line", { x1: MARGIN.left, x2: MARGIN.left + pw, y1: sy(t), y2: sy(t), class: "mw-lab-grid" }));
    nodes.push(el("text", { x: MARGIN.left - 5, y: sy(t) + 4, "text-anchor": "end", class: "mw-lab-tick" }, format(t, spec.percent)));
  }
  for (const t of spec.logX ? logTicks(x1) : niceTicks(x0, x1, 5)) {
    nodes.push(el("line", { x1: sx(t), x2: sx(t), y1: MARGIN.top + ph, y2: MARGIN.top + ph + 4, class: "mw-lab-axis" }));
    nodes.push(el("text", { x: sx(t), y: MARGIN.top + ph + 16, "text-anchor": "middle", class: "mw-lab-tick" }, format(t, false)));
  }
  nodes.push(el("line", { x1: MARGIN.left, x2: MARGIN.left + pw, y1: MARGIN.top + ph, y2: MARGIN.top + ph, class: "mw-lab-axis" }));
  nodes.push(el("line", { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: MARGIN.top + ph, class: "mw-lab-axis" }));
  nodes.push(el("text", { x: MARGIN.left + pw / 2, y: HEIGHT - 4, "text-anchor": "middle", class: "mw-lab-label" }, spec.xLabel));
  nodes.push(
    el(
      "text",
      { x: 12, y: MARGIN.top + ph / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${MARGIN.top + ph / 2})`, class: "mw-lab-label" },
      spec.yLabel,
    ),
  );
  series.forEach((s) => {
    const points = s.x.map((x, i) => `${sx(x).toFixed(1)},${sy(s.y[i]).toFixed(1)}`).join(" ");
    nodes.push(
      el("polyline", {
        points,
        fill: "none",
        stroke: s.colour,
        "stroke-width": 2,
        "stroke-dasharray": s.dash ?? "none",
        class: "mw-lab-line",
        "data-label": s.label,
      }),
    );
  });
  svg.replaceChildren(...nodes);
  svg.setAttribute("data-redraws", String(Number(svg.getAttribute("data-redraws") || 0) + 1));
  svg.setAttribute("data-last-x", String(xs.length ? xs[xs.length - 1] : 0));
  drawLegend(plot, spec.series);
}
