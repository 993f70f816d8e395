// What a bad-input case is, and what the corpus aims at (apart from corpus.ts, which imports the cases that use them).

export interface BadInput {
  name: string;
  method: string;
  /** Path and query, sent as written (no normalization by the client). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The status expected, when one is right (else any 4xx). */
  status?: number;
  /** The envelope's error code, when one is right. */
  code?: string;
}

/** What the corpus aims at: an environment of each kind, and a job that exists. */
export interface CorpusTargets {
  simple: { name: string; tool: string };
  stateful: { name: string; tool: string };
  gymnasium: string;
  /** A job created before the corpus runs (the corpus must leave it as it was). */
  jobId: string;
}
