// A local emulation that starts on state with running jobs resumes them: its queues were in memory (Miniflare's queue broker
// does not persist), so whatever was queued when it stopped is gone, while the Job objects and the bucket remain.

export interface Recovered {
  /** Running jobs found, and rollouts re-enqueued for them. */
  jobs: { id: string; resumed: number }[];
  /**
   * Running jobs that could not be resumed, and why (`id` absent: the jobs could not even be listed). A failed resume leaves
   * its job as it was; the emulation runs on, and the job heals itself once it has stalled (or `edgegym jobs resume`).
   */
  failed: { id?: string; error: string }[];
}

interface JobPage {
  data: { id: string; status: string }[];
  has_more: boolean;
  last_id?: string;
}

type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

/** What the gateway answered, as one line: its error envelope's message, else the start of the body. */
async function answered(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return `${response.status}: ${message}`;
  } catch {
    // Not the envelope: the text says what there is.
  }
  return `${response.status}: ${text.slice(0, 300)}`;
}

async function runningJobs(fetcher: Fetcher): Promise<string[]> {
  const running: string[] = [];
  for (let after: string | undefined; ; ) {
    const response = await fetcher(`/v1/jobs?limit=1000${after ? `&after=${after}` : ""}`);
    if (!response.ok) throw new Error(`listing the jobs answered ${await answered(response)}`);
    const page = (await response.json()) as JobPage;
    running.push(...page.data.filter((job) => job.status === "running").map((job) => job.id));
    if (!page.has_more || !page.last_id) return running;
    after = page.last_id;
  }
}

/**
 * Re-enqueues, for every running job, the rollouts without any record (failures stay failures: nothing that ended runs
 * again). Never throws: a job that cannot be resumed is reported in `failed`, and the others are still resumed.
 */
export async function resumeRunningJobs(fetcher: Fetcher): Promise<Recovered> {
  const recovered: Recovered = { jobs: [], failed: [] };
  let running: string[];
  try {
    running = await runningJobs(fetcher);
  } catch (error) {
    recovered.failed.push({ error: error instanceof Error ? error.message : String(error) });
    return recovered;
  }
  for (const id of running) {
    try {
      const response = await fetcher(`/v1/jobs/${id}/resume?only_missing=true`, { method: "POST" });
      if (!response.ok) throw new Error(`the gateway answered ${await answered(response)}`);
      recovered.jobs.push({ id, resumed: ((await response.json()) as { resumed: number }).resumed });
    } catch (error) {
      recovered.failed.push({ id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return recovered;
}
