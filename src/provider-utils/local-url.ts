/**
 * Whether a base URL points at this machine (Ollama, vLLM, LM Studio, TEI on localhost): such a
 * server needs no API key, so a named but unset key variable is not an error there.
 */
export function isLoopbackURL(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1' || host === '0.0.0.0';
}
