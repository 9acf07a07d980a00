/** What `strata watch` tells the user about when distillation happens (it is not immediate). */
export function describeDistillSchedule(s: { everyMessages: number; idleMs: number }): string {
  const idle = s.idleMs >= 60_000 ? `${Math.round(s.idleMs / 60_000)} min` : `${Math.round(s.idleMs / 1000)} s`;
  return `distillation runs after ${s.everyMessages} new messages, or once the conversation has been idle for ${idle} (distill.scheduler); run \`strata distill\` to distil now`;
}
