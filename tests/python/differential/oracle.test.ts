// The differential suite's own guarantees: a missing python3 fails with what to install; a difference shows its input.
import { describe, expect, it } from "vitest";
import { assertSame, Oracle } from "./oracle.js";

describe("the CPython oracle", () => {
  it("fails, naming what to install, when the interpreter is not on PATH", async () => {
    await expect(Oracle.start("python3-not-installed-here")).rejects.toThrow(/python3-not-installed-here is not on PATH.*apt-get install python3/);
  });

  it("answers a batch in order and reports exceptions by type and message", async () => {
    const oracle = await Oracle.start();
    try {
      const answers = await oracle.run([
        ["repr", "\u0130"],
        ["findall", "(", "x", { i: "0" }],
      ]);
      expect(answers[0]).toEqual({ ok: "'\u0130'" });
      expect(answers[1]).toMatchObject({ err: "error", msg: "missing ), unterminated subpattern at position 0" });
    } finally {
      oracle.stop();
    }
  });

  it("a difference fails with the input and both answers shown", () => {
    const differ = () => assertSame([{ input: "\ufeff1", python: { err: "ValueError", msg: "m" }, ours: { ok: { i: "1" } } }]);
    expect(differ).toThrow(
      /1 of 1 cases differ from CPython:\ninput "\\ufeff1"\n {2}CPython: \{"err":"ValueError","msg":"m"\}\n {2}ours: {4}\{"ok":\{"i":"1"\}\}/,
    );
  });
});
