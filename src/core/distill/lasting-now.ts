/**
 * A bare "now" or "anymore" in a user's English sentence. Said of a run ("pushing now", "docker is
 * running now") these mark a passing state; said of a life or a team ("mum lives with us now", "we
 * don't support IE anymore") they mark a lasting change. The words cannot tell which, so the gate
 * (admission.ts) asks the user-message model when nothing else here says the state passes.
 */
import { SOMEWHERE_FOR_NOW, foldInformal } from './english-user.js';
import { isPassingState } from './task-signals.js';

/** A bare "now" or "anymore", not "right now", "for now", "just now", "from now on". */
const BARE_NOW = /(?<!\b(?:right|just|for|from|until|till|by|as of)\s)\bnow\b(?!\s+on\b)|\banymore\b/gi;

/** A thing's state or a verdict on it now: "docker is running now", "prod runs fine now", "so now it's broken". */
const THING_NOW =
  /\b(?!(?:we|i|they|he|she|you)\b)[\w-]+\s+(?:is|are|'s)\s+(?:\w+ing|fine|ok|okay|good|working|broken|fixed|green|red|up|down|live|done|ready|back|online|offline)\b[^,.;]{0,20}\bnow\b|\b(?:fine|ok|okay|good|better|worse|working|broken|fixed|green|red|correctly|properly)\s+now\b|^(?:(?:ok|okay|so|and)[,\s]+)*now\b/i;

/**
 * Given that the passing-state checks (task-signals.ts) fire on `text`: they fire only because of a
 * bare "now" or "anymore", and the sentence is neither where someone is for the moment nor the state
 * of a thing or a verdict on it. The user-message model decides the rest (admission.ts).
 */
export function onlyNowSaysItPasses(text: string): boolean {
  const t = foldInformal(text);
  return !SOMEWHERE_FOR_NOW.test(t) && !THING_NOW.test(t) && !isPassingState(text.replace(BARE_NOW, ' '));
}
