// The token a restarted emulation resumes its running jobs with: one that sees every tenant's jobs when there is one.
import { describe, expect, it } from "vitest";
import { jobsToken } from "../../local/emulation.js";

describe("the recovery token", () => {
  it("prefers an admin token over a tenant's jobs token, whatever their order", () => {
    expect(jobsToken("team-a:aaaaaaaa:jobs,ops:oooooooo:admin", undefined)).toBe("oooooooo");
  });

  it("without admin, the first token with the jobs scope; the dev token when there is one", () => {
    expect(jobsToken("trainer:tttttttt:run,team-a:aaaaaaaa:jobs", undefined)).toBe("aaaaaaaa");
    expect(jobsToken(undefined, "dev-token")).toBe("dev-token");
    expect(jobsToken("reader:rrrrrrrr:read", undefined)).toBeUndefined();
  });
});
