/**
 * Limited-memory BFGS for a smooth convex objective: the two-loop recursion over the last few
 * steps gives a search direction, and a backtracking line search takes a step that lowers the
 * objective enough (Armijo). Enough for fitting the junk model; not a general optimiser.
 */
export type Objective = (x: Float64Array, gradient: Float64Array) => number;

export interface MinimizeOptions {
  maxIterations?: number;
  /** Stop when the largest gradient component is below this. */
  gradientTolerance?: number;
  /** Steps remembered. Default 10. */
  memory?: number;
}

const dot = (a: Float64Array, b: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

export function minimize(f: Objective, start: Float64Array, options: MinimizeOptions = {}): Float64Array {
  const maxIterations = options.maxIterations ?? 500;
  const tolerance = options.gradientTolerance ?? 1e-5;
  const memory = options.memory ?? 10;
  const n = start.length;
  let x = Float64Array.from(start);
  let g = new Float64Array(n);
  let fx = f(x, g);
  const steps: Array<{ s: Float64Array; y: Float64Array; rho: number }> = [];
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    if (g.reduce((m, v) => Math.max(m, Math.abs(v)), 0) < tolerance) break;
    // Two-loop recursion: direction = -H·g.
    const q = Float64Array.from(g);
    const alphas: number[] = [];
    for (let i = steps.length - 1; i >= 0; i--) {
      const { s, y, rho } = steps[i]!;
      const alpha = rho * dot(s, q);
      alphas[i] = alpha;
      for (let k = 0; k < n; k++) q[k]! -= alpha * y[k]!;
    }
    const latest = steps.at(-1);
    const gamma = latest ? dot(latest.s, latest.y) / dot(latest.y, latest.y) : 1 / Math.max(1, Math.sqrt(dot(g, g)));
    for (let k = 0; k < n; k++) q[k]! *= gamma;
    for (const [i, { s, y, rho }] of steps.entries()) {
      const beta = rho * dot(y, q);
      for (let k = 0; k < n; k++) q[k]! += s[k]! * (alphas[i]! - beta);
    }
    const direction = q.map((v) => -v);
    let slope = dot(g, direction);
    if (slope >= 0) {
      // Not a descent direction (curvature information went stale): restart from the gradient.
      steps.length = 0;
      for (let k = 0; k < n; k++) direction[k] = -g[k]!;
      slope = -dot(g, g);
    }
    let step = 1;
    const next = new Float64Array(n);
    const nextGradient = new Float64Array(n);
    let fNext = Infinity;
    for (let tries = 0; tries < 40; tries++) {
      for (let k = 0; k < n; k++) next[k] = x[k]! + step * direction[k]!;
      fNext = f(next, nextGradient);
      if (fNext <= fx + 1e-4 * step * slope) break;
      step /= 2;
    }
    if (!(fNext < fx)) break;
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      s[k] = next[k]! - x[k]!;
      y[k] = nextGradient[k]! - g[k]!;
    }
    const sy = dot(s, y);
    if (sy > 1e-10) {
      steps.push({ s, y, rho: 1 / sy });
      if (steps.length > memory) steps.shift();
    }
    const converged = Math.abs(fx - fNext) <= 1e-13 * Math.max(1, Math.abs(fx));
    x = next;
    g = nextGradient;
    fx = fNext;
    if (converged) break;
  }
  return x;
}
