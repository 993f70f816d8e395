// The token, asked once per browser session: checked against the gateway before it is kept.
import { ApiError, request, setToken } from "../api.js";
import { h, replace, status } from "../dom.js";

/** Shows the form; resolves once a token the gateway accepts has been entered. */
export function login(root: HTMLElement, reason?: string): Promise<void> {
  return new Promise((resolve) => {
    const input = h("input", { id: "token", name: "token", type: "password", autocomplete: "off", required: true, spellcheck: "false" });
    const message = h("div", { class: "message" }, reason ? status(reason, "error") : null);
    const button = h("button", { type: "submit" }, "Sign in");
    const form = h(
      "form",
      { class: "login card", "aria-labelledby": "login-title" },
      h("h1", { id: "login-title" }, "Sign in to this gateway"),
      h("p", {}, "Enter one of the gateway's API tokens. It is kept in this browser tab only (session storage) and sent as a header, never in a URL."),
      h("label", { for: "token" }, "API token"),
      input,
      button,
      message,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const candidate = input.value.trim();
      button.disabled = true;
      replace(message, status("Checking the token…"));
      try {
        await request("/v1/jobs?limit=1", { bearer: candidate });
        setToken(candidate);
        resolve();
      } catch (error) {
        const text =
          error instanceof ApiError && error.status === 401
            ? `The gateway did not accept this token (${error.message}). Check it and try again.`
            : `Could not check the token: ${error instanceof Error ? error.message : String(error)}`;
        replace(message, status(text, "error"));
        input.select();
      } finally {
        button.disabled = false;
      }
    });
    replace(root, form);
    input.focus();
  });
}
