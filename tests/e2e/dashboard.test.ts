// The dashboard end to end: Chromium (the build npm install brings; headless, through playwright-core) against the local emulation with an API
// token. Screenshots land in test-artifacts/dashboard/; EDGEGYM_UPDATE_SCREENSHOTS=1 also refreshes the README's docs/images/.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "../../local/browser.js";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { startTestLocal } from "../helpers/local.js";
import { exampleRows, MIXED_ENVIRONMENTS, mixedJobRows } from "../helpers/mixed-job.js";

const TOKEN = "dashboard-e2e-token-padded-to-32-characters-or-more";
const ARTIFACTS = path.join(PROJECT_ROOT, "test-artifacts", "dashboard");
const IMAGES = path.join(PROJECT_ROOT, "docs", "images");
const ENVIRONMENTS = [...MIXED_ENVIRONMENTS, "example_single_tool_call"];

let local: Local;
let context: BrowserContext;
let page: Page;
let profile: string;
const requested: { url: string; authorization: string | undefined }[] = [];
const problems: string[] = [];

async function shot(name: string, readme?: string): Promise<void> {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (readme && process.env.EDGEGYM_UPDATE_SCREENSHOTS === "1") copyFileSync(file, path.join(IMAGES, readme));
}

const mainNav = (name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name });

// These run in the page: as text, since the tests' own type-check knows Node's globals, not the browser's.
/** The elements sticking out past the window's right edge (a phone would scroll sideways). */
const wide = () =>
  page.evaluate<string[]>(`[...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
    .slice(0, 5)
    .map((e) => e.tagName + "." + e.className)`);
/** A computed style of an element as the page shows it (typed by hand: the tests' type-check has no DOM library). */
const style = (locator: Locator, property: "color" | "lineHeight") =>
  locator.evaluate((e, p) => (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(e)[p] ?? "", property);
const overflows = () => page.evaluate<boolean>("document.documentElement.scrollWidth > window.innerWidth + 1");

beforeAll(async () => {
  // No skipping: a machine without Chromium fails here, saying how to get it.
  const executablePath = await chromiumPath();
  mkdirSync(ARTIFACTS, { recursive: true });
  local = await startTestLocal({
    environments: ENVIRONMENTS,
    apiTokens: `dashboard:${TOKEN}:admin`,
    // At most 16 rollouts in flight: the cancel test's job must still have rollouts waiting when Cancel is clicked (with
    // the default window, a slow model has all 600 in flight at once, and cancel drops only what has not started).
    vars: { agent: { RETRY_BASE_SECONDS: "0", MAX_ATTEMPTS: "2", RUNNER_MAX_IN_FLIGHT: "16" } },
    // Reasoning, to see it folded; a little latency, to see progress move.
    simulator: { reasoning: true, latencyMs: 40 },
  });
  profile = mkdtempSync(path.join(tmpdir(), "edgegym-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: CHROMIUM_ARGS,
  });
  context.setDefaultTimeout(15_000);
  page = context.pages()[0] ?? (await context.newPage());
  page.on("request", (request) => requested.push({ url: request.url(), authorization: request.headers().authorization }));
  // Script errors and Content-Security-Policy refusals; the 401s of the sign-in probe are the only expected console errors.
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().includes("status of 401")) problems.push(message.text());
  });
});

afterAll(async () => {
  await context?.close();
  await local?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe("the dashboard in Chromium", () => {
  it("asks for the token; a wrong one is refused with a clear message", async () => {
    await page.goto(`${local.url}/`);
    await page.getByLabel("API token").fill("not-the-token");
    await page.getByLabel("API token").press("Enter");
    const alert = page.getByRole("alert");
    await expect.poll(() => alert.textContent()).toContain("did not accept this token");
    await shot("login-wrong-token");
  });

  it("signs in with the right token, kept for the session and sent only as a header", async () => {
    await page.getByLabel("API token").fill(TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Jobs" }).waitFor();
    expect(await page.evaluate<string | null>('sessionStorage.getItem("edgegym.token")')).toBe(TOKEN);
    expect(requested.filter((r) => r.url.includes(TOKEN))).toEqual([]);
    const api = requested.filter((r) => new URL(r.url).pathname.startsWith("/v1/"));
    expect(api.length).toBeGreaterThan(0);
    expect(api.at(-1)!.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("starts a job from the form and shows its progress reaching 100%", async () => {
    await page.getByText("Start a job").click();
    await page.getByLabel("Environment", { exact: true }).selectOption("");
    await page.getByLabel("Repeats", { exact: true }).fill("4");
    await page.locator("#job-rows").fill(mixedJobRows());
    await page.getByRole("button", { name: "Start job" }).click();
    await page.waitForURL(/#\/jobs\/job_[a-z0-9]+$/);
    const seen: string[] = [];
    const percent = page.getByTestId("percent");
    await expect
      .poll(
        async () => {
          seen.push((await percent.textContent()) ?? "");
          return seen.at(-1);
        },
        { timeout: 45_000, interval: 150 },
      )
      .toBe("100%");
    // The bar only ever moves forward.
    const values = seen.filter(Boolean).map((s) => Number.parseFloat(s));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    await expect.poll(() => page.locator("h1 .badge").textContent()).toBe("completed");
    expect(await page.getByTestId("count-total").textContent()).toBe("44");
    expect(await page.getByTestId("count-failed").textContent()).toBe("4");
  });

  it("shows metrics per environment, the reward histogram, components, pass rates and failures by class", async () => {
    await page.getByRole("heading", { name: "Metrics" }).waitFor();
    const metrics = page.locator("table.metrics").first();
    for (const environment of ["example_multi_step", "example_tool_call_multireward"]) expect(await metrics.textContent()).toContain(environment);
    expect(await metrics.textContent()).toContain("mean/reward");
    const rewards = page.locator("figure.histogram").first();
    expect(await rewards.locator("figcaption").textContent()).toContain("40 rollouts");
    // Rewards 0 (8 rollouts), 1 (12) and 2 (20), each in its own bar.
    const labels = await rewards.locator("a.bar").evaluateAll((bars) => bars.map((bar) => bar.getAttribute("aria-label")));
    expect(labels).toEqual(["0–0.2: 8 rollouts", "1–1.2: 12 rollouts", "1.8–2: 20 rollouts"]);
    for (const component of ["correctness", "format", "schema_valid"]) await page.locator("figure.histogram figcaption", { hasText: component }).waitFor();
    expect(await page.locator("table.tasks tbody tr").count()).toBe(10);
    // Failures by class, as the job status counts them (contracts/failures.ts): a seed that failed is a tool_error.
    expect(await page.locator("ul.failure-classes").textContent()).toContain("tool_error 4");
    await shot("job", "dashboard-job.png");
  });

  it("opens a histogram bar as rollouts: a readable conversation with tool calls and the reward", async () => {
    await page.locator("figure.histogram").first().getByRole("link", { name: "1–1.2: 12 rollouts" }).click();
    await page.getByRole("heading", { name: "Rollout viewer" }).waitFor();
    await expect.poll(() => page.locator(".pager .position").textContent()).toBe("Result 1 of 12");
    expect(await page.getByTestId("reward").textContent()).toBe("1");
    const calls = page.locator(".item.tool-call");
    expect(await calls.count()).toBeGreaterThan(1);
    expect(await calls.first().textContent()).toContain("get_synonym_value");
    expect(await calls.first().locator("pre.output").textContent()).toContain("synonym_value");
    expect(await page.locator(".item.final").count()).toBe(1);
    expect(await page.locator("details.reasoning").count()).toBeGreaterThan(0);
    expect(await page.locator("details.reasoning").first().getAttribute("open")).toBeNull();
    expect(await page.locator(".tokens").textContent()).toContain("input tokens");
    // The address names this rollout: it opens the same view.
    expect(page.url()).toMatch(/rollouts\?kind=rollout&min_reward=1&max_reward=[\d.]+&at=0%3A0$/);
    // The bar's upper edge sits just below 1.2 in the address (its range is exact); the field shows it as a person writes it.
    expect(await page.getByLabel("Reward from").inputValue()).toBe("1");
    expect(await page.getByLabel("to", { exact: true }).inputValue()).toBe("1.2");
    // The environment and failure class are chosen from what the job has, not typed.
    const options = (label: string) => page.getByLabel(label, { exact: true }).locator("option").allTextContents();
    await expect.poll(() => options("Environment")).toEqual(["Any", ...MIXED_ENVIRONMENTS]);
    await expect.poll(() => options("Failure class")).toEqual(["Any", "tool_error"]);
    await shot("rollout", "dashboard-rollout.png");

    // The keyboard pages through the filtered rollouts.
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.locator(".pager .position").textContent()).toBe("Result 2 of 12");
    await page.keyboard.press("k");
    await expect.poll(() => page.locator(".pager .position").textContent()).toBe("Result 1 of 12");
  });

  it("filters to failures and shows their class", async () => {
    await page.getByLabel("Show").selectOption("failure");
    await page.getByLabel("Reward from").fill("");
    await page.getByLabel("to", { exact: true }).fill("");
    await page.getByLabel("Failure class", { exact: true }).selectOption("tool_error");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.locator(".pager .position").textContent()).toBe("Result 1 of 4");
    expect(page.url()).toContain("failure_class=tool_error");
    expect(await page.getByTestId("failure-class").textContent()).toBe("tool_error");
    expect(await page.getByTestId("failure-code").textContent()).toBe("seed_failed");
    expect(await page.locator(".failure-card").textContent()).toContain("expected_synonym_values");
    await shot("failures");
  });

  it("a rollout's link opens the same rollout in a new tab, after signing in there", async () => {
    await page.goBack();
    await expect.poll(() => page.locator(".pager .position").textContent()).toBe("Result 1 of 12");
    const link = page.url();
    const rolloutId = await page.locator(".rollout-title code").textContent();
    const tab = await context.newPage();
    await tab.goto(link);
    await tab.getByLabel("API token").fill(TOKEN);
    await tab.getByLabel("API token").press("Enter");
    await expect.poll(() => tab.locator(".rollout-title code").textContent()).toBe(rolloutId);
    await tab.close();
  });

  it("updates a running job's progress in the list; cancel stops it and resume finishes it", async () => {
    // A model slow enough that the job is surely still running when Cancel is clicked, however fast the machine.
    local.simulator!.configure({ latencyMs: 200 });
    const rows = `${JSON.stringify(exampleRows("example_single_tool_call")[0])}\n`;
    const created = await fetch(`${local.url}/v1/jobs?environment=example_single_tool_call&num_repeats=600`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/x-ndjson" },
      body: rows,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await mainNav("Jobs").click();
    const row = page.locator(`tr[data-job="${id}"]`);
    const percent = () => row.getByTestId("percent").textContent();
    const first = await percent();
    // The list follows the job without a reload.
    await expect.poll(percent, { timeout: 20_000 }).not.toBe(first);
    expect(await row.textContent()).toContain("running");
    await shot("jobs", "dashboard-jobs.png");

    await row.getByRole("link", { name: id }).click();
    await page.getByRole("button", { name: "Cancel job" }).click();
    await expect.poll(() => page.locator("h1 .badge").textContent()).toBe("cancelled");
    local.simulator!.configure({ latencyMs: 0 });
    await page.getByRole("button", { name: "Resume job" }).click();
    await expect.poll(() => page.locator("h1 .badge").textContent(), { timeout: 60_000 }).toBe("completed");
    expect(await page.getByTestId("count-done").textContent()).toBe("600");
    expect(await page.getByTestId("percent").textContent()).toBe("100%");
  }, 150_000);

  it("lists the jobs with size, state, progress and throughput", async () => {
    await mainNav("Jobs").click();
    const row = page.locator("tbody tr").nth(1);
    await expect.poll(() => row.textContent()).toContain("100%");
    expect(await row.textContent()).toContain("11 × 4 = 44");
    expect(await row.textContent()).toContain("completed");
    expect(await row.textContent()).toMatch(/\/s/);
    expect(await row.textContent()).toContain("example_multi_step, example_tool_call_multireward");
    // Who created it: the token's name, under the id.
    expect(await row.getByTestId("owner").textContent()).toBe("dashboard");
    // Failures show in amber beside the state, not as a plain green "completed".
    const state = row.getByTestId("state");
    expect(await state.textContent()).toBe("completed, 4 failed");
    expect(await style(state, "color")).toBe("rgb(154, 103, 0)");
    const clean = page.locator("tbody tr").first().getByTestId("state");
    expect(await clean.textContent()).toBe("completed");
    expect(await style(clean, "color")).toBe("rgb(28, 124, 60)");
    // Rewards 0 (8 rollouts), 1 (12) and 2 (20): a mean of 1.3.
    expect(await row.getByTestId("mean-reward").textContent()).toBe("1.3");
    // The id on one line; the whole id is the link's title and its text (what a copy takes).
    const id = row.locator("a.job-id");
    const full = (await row.getAttribute("data-job"))!;
    expect(await id.getAttribute("title")).toBe(full);
    expect(await id.textContent()).toBe(full);
    expect(await id.locator("code").evaluate((e) => e.getClientRects().length)).toBe(1);
    const lineHeight = await Number.parseFloat(await style(id.locator("code"), "lineHeight"));
    expect(await id.locator("code").evaluate((e) => e.getBoundingClientRect().height)).toBeLessThan(lineHeight * 1.5);
    // Every column, Created included, within a laptop's width: the table does not scroll sideways.
    expect(await page.evaluate<boolean>(`(() => { const w = document.querySelector(".table-wrap"); return w.scrollWidth <= w.clientWidth + 1; })()`)).toBe(
      true,
    );
  });

  it("shows a running job that has recorded nothing for its stall time as stalled", async () => {
    // The gateway's answer with one more job, as the Job object reports a stall (`stalled` in its info).
    await page.route("**/v1/jobs?limit=*", async (route) => {
      const response = await route.fetch();
      const list = (await response.json()) as { data: Record<string, unknown>[] };
      const stalled = {
        ...list.data[0],
        id: "job_zzstalled",
        status: "running",
        progress: 0.4,
        metrics: undefined,
        stalled: { since: Date.now() - 600_000, heals: 1, max_heals: 3 },
      };
      await route.fulfill({ response, json: { ...list, data: [stalled, ...list.data] } });
    });
    try {
      await page.reload();
      const state = page.locator('tr[data-job="job_zzstalled"]').getByTestId("state");
      await expect.poll(() => state.textContent()).toBe("stalled");
      expect(await style(state, "color")).toBe("rgb(180, 35, 24)");
      expect(await state.getAttribute("title")).toContain("re-enqueued what was missing 1 of at most 3 times");
    } finally {
      await page.unroute("**/v1/jobs?limit=*");
    }
    await page.reload();
    await page.locator("tbody tr").first().waitFor();
    expect(await page.locator('tr[data-job="job_zzstalled"]').count()).toBe(0);
  });

  it("lists the environments with their tools and runs an example row", async () => {
    await mainNav("Environments").click();
    const card = page.locator("#env-example_single_tool_call");
    await card.waitFor();
    // Every card closed: the page is a list to scan, not every tool's schema at once.
    expect(await page.locator("details.tools[open]").count()).toBe(0);
    // With every card open (as before) these three environments made a page of 1,414 px, 17 of them ~5,400 px.
    const bottom = await page.evaluate<number>(
      `Math.max(...[...document.querySelectorAll("section.environment")].map((c) => c.getBoundingClientRect().bottom)) + scrollY`,
    );
    const tallest = await page.evaluate<number>(
      `Math.max(...[...document.querySelectorAll("section.environment")].map((c) => c.getBoundingClientRect().height))`,
    );
    expect(bottom).toBeLessThan(1000);
    expect(tallest).toBeLessThan(260);
    expect(await card.textContent()).toContain("get_weather");
    expect(await card.locator("table.parameters").textContent()).toContain("city");
    await card.getByText("Try it: run one row").click();
    await card.getByRole("button", { name: "Run example" }).click();
    const result = card.locator(".run-output .item.tool-call");
    await result.first().waitFor({ timeout: 30_000 });
    expect(await result.first().textContent()).toContain("get_weather");
    expect(await card.getByTestId("reward").textContent()).toBe("1");
    await shot("environments", "dashboard-environments.png");
  });

  it("fits a phone's width", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await mainNav("Jobs").click();
    await page.locator("tbody tr").first().waitFor();
    expect(await overflows()).toBe(false);
    await shot("jobs-phone");
    await page.locator("tbody tr a").first().click();
    await page.locator("figure.histogram").first().waitFor();
    expect(await overflows()).toBe(false);
    await page.getByRole("link", { name: "Browse rollouts" }).click();
    await page.locator(".rollout").waitFor();
    expect(await wide()).toEqual([]);
    expect(await overflows()).toBe(false);
    await shot("rollout-phone");
  });

  it("an id from the address bar stays one path segment of /v1/jobs: `#/jobs/..%2F..%2Fv1%2Ffiles` reaches no other route", async () => {
    const before = requested.length;
    const problemsBefore = problems.length;
    for (const hash of ["#/jobs/..%2F..%2Fv1%2Ffiles", "#/jobs/..%2F..%2Fv1%2Ffiles/rollouts", "#/jobs/x%3Flimit%3D1%23"]) {
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith("/v1/"));
      await page.goto(`${local.url}/${hash}`);
      await answered;
    }
    const paths = requested
      .slice(before)
      .map((r) => new URL(r.url))
      .filter((url) => url.pathname.startsWith("/v1/"));
    expect(paths.length).toBeGreaterThan(0);
    for (const url of paths) {
      // /v1/jobs/<the id, encoded whole>, then one of the job's own routes, and nothing else.
      expect(url.pathname).toMatch(/^\/v1\/jobs\/(\.\.%2F\.\.%2Fv1%2Ffiles|x%3Flimit%3D1%23)(\/(summary|records))?$/);
    }
    // The job is unknown, so those answers were 404s: the console says so, which is expected here (and only here).
    const rest = problems.splice(problemsBefore).filter((problem) => !problem.includes("status of 404"));
    problems.push(...rest);
  });

  it("ran without a script error or a refused resource", () => {
    expect(problems).toEqual([]);
  });
});
