// Methods a route does not take, paths that name nothing, path tricks, unknown jobs and bad list queries.
import type { BadInput, CorpusTargets } from "./types.js";

const get = (name: string, path: string, expect: Pick<BadInput, "status" | "code"> = {}): BadInput => ({ name, method: "GET", path, ...expect });

function methodCases(t: CorpusTargets): BadInput[] {
  const wrong: [string, string][] = [
    ["POST", "/health"],
    ["DELETE", "/health"],
    ["GET", "/run"],
    ["PUT", "/run"],
    ["PATCH", "/run"],
    ["GET", "/v1/responses"],
    ["DELETE", "/v1/responses"],
    ["GET", "/v1/chat/completions"],
    ["POST", "/v1/models"],
    ["PUT", "/v1/jobs"],
    ["DELETE", "/v1/jobs"],
    ["PATCH", `/v1/jobs/${t.jobId}`],
    ["POST", `/v1/jobs/${t.jobId}`],
    ["PUT", `/v1/jobs/${t.jobId}`],
    ["POST", `/v1/jobs/${t.jobId}/rollouts`],
    ["DELETE", `/v1/jobs/${t.jobId}/failures`],
    ["GET", `/v1/jobs/${t.jobId}/resume`],
    ["POST", "/v1/environments"],
    ["OPTIONS", "/v1/jobs"],
    ["PROPFIND", "/v1/jobs"],
    ["GET", `/v1/environments/${t.simple.name}/seed_session`],
    ["GET", `/v1/environments/${t.simple.name}/verify`],
    ["PUT", `/v1/environments/${t.simple.name}/${t.simple.tool}`],
    ["DELETE", `/v1/environments/${t.stateful.name}/${t.stateful.tool}`],
    ["GET", `/v1/environments/${t.gymnasium}/step`],
    ["PATCH", `/v1/environments/${t.gymnasium}/reset`],
  ];
  return wrong.map(([method, path]) => ({
    name: `method: ${method} ${path.replace(t.jobId, "<job>")}`,
    method,
    path,
    status: 405,
  }));
}

function unknownCases(t: CorpusTargets): BadInput[] {
  const missingJob = "job_0000000000000000000";
  return [
    get("unknown route", "/nope", { status: 404 }),
    get("unknown route under /v1", "/v1/nothing/here", { status: 404 }),
    get("unknown environment's tools", "/v1/environments/ghost/tools", { status: 404, code: "unknown_environment" }),
    { name: "unknown environment's tool call", method: "POST", path: "/v1/environments/ghost/get_weather", body: "{}", status: 404 },
    get("environment name in capitals", `/v1/environments/${t.simple.name.toUpperCase()}/tools`, { status: 404 }),
    get("unknown path inside an environment", `/v1/environments/${t.simple.name}/tools/extra/deep`, { status: 404 }),
    get("unknown job", `/v1/jobs/${missingJob}`, { status: 404, code: "unknown_job" }),
    get("unknown job's rollouts", `/v1/jobs/${missingJob}/rollouts`, { status: 404 }),
    get("unknown job's failures", `/v1/jobs/${missingJob}/failures`, { status: 404 }),
    { name: "cancel an unknown job", method: "DELETE", path: `/v1/jobs/${missingJob}`, status: 404 },
    { name: "resume an unknown job", method: "POST", path: `/v1/jobs/${missingJob}/resume`, status: 404 },
    get("a job id that is not one", "/v1/jobs/not-a-job", { status: 404 }),
    get("a job id in capitals", `/v1/jobs/${t.jobId.toUpperCase()}`, { status: 404 }),
    get("a job id 10,000 characters long", `/v1/jobs/job_${"a".repeat(10_000)}`, { status: 404 }),
    get("a job id with a unicode letter", `/v1/jobs/job_${encodeURIComponent("ä")}`, { status: 404 }),
    get("a job's unknown sub-resource", `/v1/jobs/${t.jobId}/secrets`, { status: 404 }),
  ];
}

function trickCases(t: CorpusTargets): BadInput[] {
  return [
    get("encoded dot segments in a job id", "/v1/jobs/%2e%2e", { status: 404 }),
    get("encoded dot segments after a job id", `/v1/jobs/${t.jobId}%2F..%2F..%2Fhealth`, { status: 404 }),
    get("an encoded slash in an environment name", `/v1/environments/${t.simple.name}%2F..%2Fghost/tools`, { status: 404 }),
    get("dot segments as an environment name", "/v1/environments/%2e%2e/tools", { status: 404 }),
    get("a NUL byte in a job id", `/v1/jobs/${t.jobId}%00`, { status: 404 }),
    get("a NUL byte in an environment name", `/v1/environments/${t.simple.name}%00/tools`, { status: 404 }),
    get("a newline in a job id", `/v1/jobs/${t.jobId}%0A`, { status: 404 }),
    get("a bucket key as a job id", "/v1/jobs/jobs%2Fjob_x%2Fjob.json", { status: 404 }),
    get("a backslash trick", "/v1/jobs/..%5C..%5Chealth", { status: 404 }),
    get("invalid percent-encoding", "/v1/jobs/%zz", { status: 404 }),
    get("an overlong UTF-8 encoded slash", "/v1/environments/%c0%af/tools", { status: 404 }),
    get("a 20,000-character path", `/${"x/".repeat(10_000)}`, { status: 404 }),
    get("an environment's reserved route as a tool", `/v1/environments/${t.simple.name}/health/../verify`, { status: 405 }),
    {
      name: "a tool named like a reserved route",
      method: "POST",
      path: `/v1/environments/${t.simple.name}/tools`,
      headers: { "content-type": "application/json" },
      body: "{}",
      status: 404,
    },
  ];
}

function queryCases(): BadInput[] {
  return [
    get("list: limit 0", "/v1/jobs?limit=0", { status: 400 }),
    get("list: limit too large", "/v1/jobs?limit=100000", { status: 400 }),
    get("list: limit a word", "/v1/jobs?limit=all", { status: 400 }),
    get("list: limit negative", "/v1/jobs?limit=-1", { status: 400 }),
    get("list: after not a job id", "/v1/jobs?after=../../etc", { status: 400 }),
    get("list: after a huge string", `/v1/jobs?after=${"z".repeat(5000)}`, { status: 400 }),
  ];
}

function headerCases(t: CorpusTargets): BadInput[] {
  const toolPath = `/v1/environments/${t.stateful.name}/${t.stateful.tool}`;
  const bad = '{"count": "x"}';
  const json = { "content-type": "application/json" };
  // A session id is checked before the body (it must be one minted for this caller, environments/sdk/session-id.ts): a
  // made-up one is an unknown session, whatever the body holds.
  return [
    {
      name: "a session header with path characters",
      method: "POST",
      path: toolPath,
      headers: { ...json, "x-session-id": "../../other" },
      body: bad,
      status: 404,
      code: "unknown_session",
    },
    {
      name: "a session header 5,000 characters long",
      method: "POST",
      path: toolPath,
      headers: { ...json, "x-session-id": "s".repeat(5000) },
      body: bad,
      status: 404,
      code: "unknown_session",
    },
    {
      name: "a garbage session cookie",
      method: "POST",
      path: toolPath,
      headers: { ...json, cookie: "session=%%%; edgegym_session=../x" },
      body: bad,
      status: 404,
      code: "unknown_session",
    },
    { name: "a Starlette cookie of garbage", method: "POST", path: toolPath, headers: { ...json, cookie: "session=e30.!!.!!" }, body: bad, status: 422 },
    {
      name: "a content type with a bad charset",
      method: "POST",
      path: "/run",
      headers: { "content-type": "application/json; charset=ebcdic" },
      body: "{}",
      status: 400,
    },
    {
      name: "a JSON Lines job with a charset",
      method: "POST",
      path: `/v1/jobs?environment=${t.simple.name}`,
      headers: { "content-type": "application/x-ndjson; charset=utf-8" },
      body: "{bad\n",
      status: 400,
    },
  ];
}

export function pathCases(targets: CorpusTargets): BadInput[] {
  return [...methodCases(targets), ...unknownCases(targets), ...trickCases(targets), ...queryCases(), ...headerCases(targets)];
}
