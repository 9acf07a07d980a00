/**
 * A choice stated by its contrast: "trains over buses for anything over an hour", "we do cloth
 * nappies, not disposables", "i only eat halal meat", "no new deps without asking me first",
 * "i learn best with a tiny example first".
 */
export const CONTRAST =
  /^(?:(?:also|and|fyi|btw|oh)[,\s]+)*[a-z-]+s over [a-z-]+s\b|^(?:(?:also|and|fyi|btw)[,\s]+)*(?:we|i)\s+(?:do|use|buy|book|eat|drink|wear|take|run|keep|pay)\s+(?!(?:it|this|that|them|the same)\b)[\w.-]+(?:\s+[\w.-]+){0,3},\s*not\s+[\w.-]+(?:\s+[\w.-]+)?[.!]?$|\b(?:i|we)\s+only\s+(?:eat|drink|use|buy|book|fly|shop|wear|watch|read|work|deploy|ship|accept|take|pay)\b|^no\s+(?:new\s+)?[\w.-]+(?:\s+[\w.-]+)?\s+without\b|\b(?:i|we)\s+(?:learn|work|sleep|focus)\s+best\b/i;
