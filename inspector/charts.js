// Small hand-written SVG charts (no library, no inline styles: CSP allows only our stylesheet).
// Every number is also in the element's <title> and a data attribute, for screen readers and tests.
import { html } from './ui.js';

const W = 640;
const H = 160;
const PAD = { left: 32, bottom: 22, top: 8, right: 8 };

/** Days between the first and last day, filled with zeros, so the axis is time and not just the days that have memories. */
export function fillDays(byDay, maxDays = 366) {
  if (byDay.length === 0) return [];
  const counts = new Map(byDay.map((d) => [d.day, d.count]));
  const out = [];
  const last = new Date(`${byDay[byDay.length - 1].day}T00:00:00Z`);
  let day = new Date(`${byDay[0].day}T00:00:00Z`);
  if ((last - day) / 86_400_000 > maxDays) day = new Date(last.getTime() - maxDays * 86_400_000);
  while (day <= last) {
    const key = day.toISOString().slice(0, 10);
    out.push({ day: key, count: counts.get(key) ?? 0 });
    day = new Date(day.getTime() + 86_400_000);
  }
  return out;
}

/** Memories created per day (bars) with the running total (line). */
export function TimeChart({ byDay, testid }) {
  const days = fillDays(byDay);
  if (days.length === 0) return html`<p class="muted">No memories yet.</p>`;
  const max = Math.max(...days.map((d) => d.count), 1);
  let running = 0;
  const totals = days.map((d) => (running += d.count));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / days.length;
  const bar = Math.max(1, step - 1);
  const y = (v, m) => PAD.top + innerH - (v / m) * innerH;
  const line = totals.map((t, i) => `${i ? 'L' : 'M'}${(PAD.left + i * step + step / 2).toFixed(1)},${y(t, running).toFixed(1)}`).join(' ');
  return html`<svg
    class="chart"
    viewBox=${`0 0 ${W} ${H}`}
    role="img"
    aria-label=${`Memories created per day, ${days[0].day} to ${days[days.length - 1].day}`}
    data-testid=${testid}
  >
    <line class="axis" x1=${PAD.left} y1=${PAD.top + innerH} x2=${W - PAD.right} y2=${PAD.top + innerH} />
    <text class="tick" x=${PAD.left - 4} y=${PAD.top + 8} text-anchor="end">${max}</text>
    <text class="tick" x=${PAD.left - 4} y=${PAD.top + innerH} text-anchor="end">0</text>
    ${days.map(
      (d, i) =>
        html`<rect
          class="bar"
          data-day=${d.day}
          data-count=${d.count}
          x=${PAD.left + i * step}
          y=${y(d.count, max)}
          width=${bar}
          height=${(d.count / max) * innerH}
        >
          <title>${d.day}: ${d.count} created</title>
        </rect>`,
    )}
    <path class="running" d=${line}><title>Running total: ${running}</title></path>
    <text class="tick" x=${PAD.left} y=${H - 6}>${days[0].day}</text>
    <text class="tick" x=${W - PAD.right} y=${H - 6} text-anchor="end">${days[days.length - 1].day}</text>
  </svg>`;
}

/** Horizontal bars, largest first; `href(key)` makes each row a link (e.g. to the filtered list). */
export function BarList({ counts, label = (k) => k, href, testid }) {
  const rows = Object.entries(counts ?? {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (rows.length === 0) return html`<p class="muted">Nothing to count.</p>`;
  const max = Math.max(...rows.map(([, v]) => v), 1);
  return html`<ul class="barlist" data-testid=${testid}>
    ${rows.map(([k, v]) => {
      const link = href?.(k);
      const name = link ? html`<a href=${link}>${label(k)}</a>` : label(k);
      return html`<li data-key=${k} data-count=${v}>
        <span class="name" title=${k}>${name}</span>
        <svg class="hbar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
          <rect x="0" y="0" height="10" width=${Math.max(1, (v / max) * 100)} />
        </svg>
        <span class="num">${v}</span>
      </li>`;
    })}
  </ul>`;
}
