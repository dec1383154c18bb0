// Time the page's hint (static/policy.js, the default playouts) over every position of some deals, as the hint
// itself plays them: the JavaScript counterpart of hint_latency.py, on the same positions (the two hints agree).
//
//     node benchmarks/js_hint_latency.mjs 1 60
//
// Prints the number of positions and the median, 95th percentile and maximum in milliseconds, of CPU time
// (process.cpuUsage(), what the hint itself costs, with V8's garbage collection) and of wall-clock time
// (performance.now(), which includes the machine's other load). The first deal is played once
// before the timing, so that V8 has compiled the hot code, as it has after a page's first hint or two.

import { Game } from "../src/foursquare/web/static/engine.js";
import { hint } from "../src/foursquare/web/static/policy.js";

const [first, last] = process.argv.slice(2).map(Number);
if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last)) {
  console.error("usage: node benchmarks/js_hint_latency.mjs FIRST_DEAL LAST_DEAL");
  process.exit(2);
}

/**
 * Play deal `deal` by the hint's first move; the milliseconds of each hint.
 * @param {number} deal
 */
function play(deal) {
  const game = new Game({ deal });
  const times = [];
  while (!game.isOver) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    const { moves } = hint(game);
    const cpu = process.cpuUsage(startCpu);
    times.push({ wall: performance.now() - start, cpu: (cpu.user + cpu.system) / 1000 });
    game.place(moves[0].row, moves[0].col);
  }
  return times;
}

const cold = play(first).map(({ wall }) => wall);
const times = [];
for (let deal = first; deal <= last; deal += 1) times.push(...play(deal));
for (const kind of /** @type {const} */ (["cpu", "wall"])) {
  const ms = times.map((time) => time[kind]).sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)];
  console.log(
    `${kind}: ${ms.length} positions, median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, ` +
      `max ${ms[ms.length - 1].toFixed(1)} ms`,
  );
}
console.log(`before V8 compiled it: the first hint ${cold[0].toFixed(1)} ms, the first deal's slowest ${Math.max(...cold).toFixed(1)} ms (wall)`);
