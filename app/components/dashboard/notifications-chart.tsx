import { type PointerEvent, useLayoutEffect, useRef, useState } from "react";

export interface ChartPoint {
  month: string;
  value: number;
}

/**
 * Reminders sent per month over six months (axes Month and Reminders) as a small SVG line chart of
 * our own: six points do not need a charting library (recharts was 104 KB gzip of the dashboard's
 * JavaScript). What it draws: a dashed grid, the month and value axes
 * with their titles, a monotone line with dots, and on hover a cursor line and a tooltip with the
 * month and 'Reminders sent: n'. Client only (its width is measured); the page puts it in an
 * aria-hidden box and gives screen readers the same numbers as a table.
 */
export default function NotificationsChart({ data }: { data: ChartPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  // The point under the pointer, and the pointer's height (the tooltip follows it).
  const [active, setActive] = useState<{ index: number; y: number } | null>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const geometry = width > 0 && data.length > 0 ? layout(data, width) : null;
  const point = active && geometry ? geometry.points[active.index] : null;
  const track = (event: PointerEvent<SVGSVGElement>) => {
    if (!geometry) return;
    const rect = event.currentTarget.getBoundingClientRect();
    setActive({ index: nearest(geometry.points, event.clientX - rect.left), y: event.clientY - rect.top });
  };
  return (
    <div ref={box} className="relative w-full" style={{ height: HEIGHT }} data-testid="notifications-chart">
      {geometry && (
        <svg
          width={width}
          height={HEIGHT}
          className="block overflow-visible text-xs"
          onPointerMove={track}
          onPointerDown={track}
          onPointerLeave={() => setActive(null)}
        >
          <title>Reminders sent per month</title>
          <g stroke="var(--border)" strokeDasharray="3 3">
            {geometry.yTicks.map((tick) => (
              <line key={tick.value} x1={PLOT.left} x2={width - PLOT.right} y1={tick.y} y2={tick.y} />
            ))}
            {geometry.points.map((p) => (
              <line key={p.label} x1={p.x} x2={p.x} y1={PLOT.top} y2={HEIGHT - PLOT.bottom} />
            ))}
          </g>
          <g fill="var(--muted)" stroke="none" fontSize={12}>
            <line
              x1={PLOT.left}
              x2={width - PLOT.right}
              y1={HEIGHT - PLOT.bottom}
              y2={HEIGHT - PLOT.bottom}
              stroke="var(--muted)"
            />
            <line x1={PLOT.left} x2={PLOT.left} y1={PLOT.top} y2={HEIGHT - PLOT.bottom} stroke="var(--muted)" />
            {geometry.points.map(
              (p) =>
                p.showLabel && (
                  <text key={p.label} x={p.x} y={HEIGHT - PLOT.bottom + 18} textAnchor="middle">
                    {p.label}
                  </text>
                ),
            )}
            {geometry.yTicks.map((tick) => (
              <text key={tick.value} x={PLOT.left - 8} y={tick.y + 4} textAnchor="end">
                {tick.value}
              </text>
            ))}
            <text x={(PLOT.left + width - PLOT.right) / 2} y={HEIGHT - 4} textAnchor="middle">
              Month
            </text>
            <text
              x={0}
              y={0}
              textAnchor="middle"
              transform={`translate(${14} ${(PLOT.top + HEIGHT - PLOT.bottom) / 2}) rotate(-90)`}
            >
              Reminders
            </text>
          </g>
          {point && <line x1={point.x} x2={point.x} y1={PLOT.top} y2={HEIGHT - PLOT.bottom} stroke="var(--muted)" />}
          <path d={geometry.path} fill="none" stroke="var(--primary)" strokeWidth={2} />
          {geometry.points.map((p, i) => (
            <circle
              key={p.label}
              cx={p.x}
              cy={p.y}
              r={i === active?.index ? 5 : 3}
              fill={i === active?.index ? "var(--primary)" : "var(--surface)"}
              stroke="var(--primary)"
              strokeWidth={2}
            />
          ))}
        </svg>
      )}
      {point && (
        <div
          className="pointer-events-none absolute rounded-md px-3 py-2 text-sm shadow-lg"
          style={{
            // Beside the point, on the side with room.
            left: point.x > width / 2 ? undefined : point.x + 12,
            right: point.x > width / 2 ? width - point.x + 12 : undefined,
            top: Math.max(0, Math.min((active?.y ?? point.y) - 72, HEIGHT - 64)),
            background: "var(--surface)",
            border: "1px solid var(--border)",
            color: "var(--foreground)",
          }}
        >
          <p className="whitespace-nowrap">{point.label}</p>
          <p className="whitespace-nowrap" style={{ color: "var(--primary)" }}>
            Reminders sent: {point.value}
          </p>
        </div>
      )}
    </div>
  );
}

const HEIGHT = 240;
/** Room around the plot: the value axis and its title on the left, the months and their title below. */
const PLOT = { top: 8, right: 16, bottom: 44, left: 56 };

interface Placed {
  label: string;
  value: number;
  x: number;
  y: number;
  showLabel: boolean;
}

/** Whole-number ticks from 0 to a round maximum (1, 2 or 5 × 10ⁿ apart), at most five. */
export function valueTicks(max: number): number[] {
  if (max <= 0) return [0, 1, 2, 3, 4];
  let step = 1;
  for (let magnitude = 1; ; magnitude *= 10) {
    const found = [1, 2, 5].map((m) => m * magnitude).find((s) => Math.ceil(max / s) <= 4);
    if (found) {
      step = found;
      break;
    }
  }
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: top / step + 1 }, (_, i) => i * step);
}

function layout(data: ChartPoint[], width: number) {
  const ticks = valueTicks(Math.max(...data.map((p) => p.value)));
  const top = ticks.at(-1) ?? 1;
  const plotWidth = Math.max(1, width - PLOT.left - PLOT.right);
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  // Each month in the middle of its band, as a category axis places it.
  const band = plotWidth / data.length;
  const y = (value: number) => PLOT.top + plotHeight - (value / top) * plotHeight;
  // Month labels that would overlap are skipped, keeping the last (the current month).
  const labelWidth = Math.max(...data.map((p) => p.month.length)) * 7 + 8;
  const every = Math.max(1, Math.ceil(labelWidth / band));
  const points: Placed[] = data.map((p, i) => ({
    label: p.month,
    value: p.value,
    x: PLOT.left + band * (i + 0.5),
    y: y(p.value),
    showLabel: (data.length - 1 - i) % every === 0,
  }));
  return {
    points,
    yTicks: ticks.map((value) => ({ value, y: y(value) })),
    path: monotonePath(points),
  };
}

function nearest(points: Placed[], x: number): number {
  let best = 0;
  for (let i = 1; i < points.length; i++) if (Math.abs(points[i].x - x) < Math.abs(points[best].x - x)) best = i;
  return best;
}

/**
 * A monotone cubic curve through the points (Fritsch–Carlson, as d3's curveMonotoneX draws it for
 * recharts' type="monotone"): smooth, and monotone between two points, so a month with no
 * reminders never dips below zero.
 */
export function monotonePath(points: { x: number; y: number }[]): string {
  const n = points.length;
  if (n === 0) return "";
  const start = `M${points[0].x},${points[0].y}`;
  if (n === 2) return `${start}L${points[1].x},${points[1].y}`;
  const slope = (i: number) => (points[i + 1].y - points[i].y) / (points[i + 1].x - points[i].x);
  // The tangent at each inner point (d3's slope3), then at the two ends (d3's slope2).
  const tangents = points.map((_, i) => {
    if (i === 0 || i === n - 1) return 0;
    const [s0, s1] = [slope(i - 1), slope(i)];
    const h0 = points[i].x - points[i - 1].x;
    const h1 = points[i + 1].x - points[i].x;
    const p = (s0 * h1 + s1 * h0) / (h0 + h1);
    return (Math.sign(s0) + Math.sign(s1)) * Math.min(Math.abs(s0), Math.abs(s1), 0.5 * Math.abs(p)) || 0;
  });
  if (n > 2) {
    tangents[0] = (3 * slope(0) - tangents[1]) / 2;
    tangents[n - 1] = (3 * slope(n - 2) - tangents[n - 2]) / 2;
  }
  let d = start;
  for (let i = 0; i < n - 1; i++) {
    const [p, q] = [points[i], points[i + 1]];
    const h = (q.x - p.x) / 3;
    d += `C${p.x + h},${p.y + h * tangents[i]},${q.x - h},${q.y - h * tangents[i + 1]},${q.x},${q.y}`;
  }
  return d;
}
