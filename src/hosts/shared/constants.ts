/** Dependency-free constants, so the CLI can describe the hosts without loading them. */
export const TOKEN_ENV = 'STRATA_HTTP_TOKEN';
