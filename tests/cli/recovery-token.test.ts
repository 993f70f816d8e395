// The token a restarted emulation resumes its running jobs with: one that sees every tenant's jobs when there is one.
import { describe, expect, it } from "vitest";
import { jobsToken } from "../../local/emulation.js";

describe("the recovery token", () => {
  it("prefers an admin token over a tenant's jobs token, whatever their order", () => {
    expect(jobsToken("team-a:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:jobs,ops:oooooooooooooooooooooooooooooooo:admin", undefined)).toBe(
      "oooooooooooooooooooooooooooooooo",
    );
  });

  it("without admin, the first token with the jobs scope; the dev token when there is one", () => {
    expect(jobsToken("trainer:tttttttttttttttttttttttttttttttt:run,team-a:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:jobs", undefined)).toBe(
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    );
    expect(jobsToken(undefined, "dev-token")).toBe("dev-token");
    expect(jobsToken("reader:rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr:read", undefined)).toBeUndefined();
  });
});
