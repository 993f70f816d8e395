// A local emulation that starts on state with running jobs resumes them: its queues were in memory (Miniflare's queue broker
// does not persist), so whatever was queued when it stopped is gone, while the Job objects and the bucket remain.

export interface Recovered {
  /** Running jobs found, and rollouts re-enqueued for them. */
  jobs: { id: string; resumed: number }[];
}

interface JobPage {
  data: { id: string; status: string }[];
  has_more: boolean;
  last_id?: string;
}

/** Re-enqueues, for every running job, the rollouts without any record (failures stay failures: nothing that ended runs again). */
export async function resumeRunningJobs(fetcher: (path: string, init?: RequestInit) => Promise<Response>): Promise<Recovered> {
  const running: string[] = [];
  for (let after: string | undefined; ; ) {
    const response = await fetcher(`/v1/jobs?limit=1000${after ? `&after=${after}` : ""}`);
    if (!response.ok) throw new Error(`listing jobs to resume answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const page = (await response.json()) as JobPage;
    running.push(...page.data.filter((job) => job.status === "running").map((job) => job.id));
    if (!page.has_more || !page.last_id) break;
    after = page.last_id;
  }
  const jobs: Recovered["jobs"] = [];
  for (const id of running) {
    const response = await fetcher(`/v1/jobs/${id}/resume?only_missing=true`, { method: "POST" });
    if (!response.ok) throw new Error(`resuming job ${id} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    jobs.push({ id, resumed: ((await response.json()) as { resumed: number }).resumed });
  }
  return { jobs };
}
