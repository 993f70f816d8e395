// The dashboard's entry: the sign-in (when the gateway wants a token), the navigation, and the hash routes.
import { ApiError, request, setToken, token, whenUnauthorized } from "./api.js";
import { h, replace, status } from "./dom.js";
import type { View } from "./views/context.js";
import { environmentsView } from "./views/environments.js";
import { jobView } from "./views/job.js";
import { jobsView } from "./views/jobs.js";
import { login } from "./views/login.js";
import { viewerView } from "./views/viewer.js";

const main = document.getElementById("main")!;
const nav = document.getElementById("nav")!;
let current: AbortController | undefined;

/** `#/jobs/<id>/rollouts?…` → the view and its parts. */
function resolve(hash: string): { draw: (view: View) => void; path: string[]; query: URLSearchParams; section: string } {
  const [path = "", search = ""] = hash.replace(/^#\/?/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(search);
  if (parts[0] === "environments") return { draw: environmentsView, path: parts.slice(1), query, section: "environments" };
  if (parts[0] === "jobs" && parts[1] && parts[2] === "rollouts") return { draw: viewerView, path: [parts[1]], query, section: "jobs" };
  if (parts[0] === "jobs" && parts[1]) return { draw: jobView, path: [parts[1]], query, section: "jobs" };
  return { draw: jobsView, path: [], query, section: "jobs" };
}

function drawNav(section: string, open: boolean): void {
  const link = (href: string, label: string, name: string) => h("a", { href, "aria-current": section === name ? "page" : null }, label);
  replace(
    nav,
    link("#/jobs", "Jobs", "jobs"),
    link("#/environments", "Environments", "environments"),
    open
      ? h("span", { class: "muted", title: "This gateway has no API tokens configured" }, "open gateway")
      : h(
          "button",
          {
            type: "button",
            class: "link",
            onclick: () => {
              setToken(null);
              void start();
            },
          },
          "Sign out",
        ),
  );
}

let gatewayOpen = false;

function render(): void {
  current?.abort();
  current = new AbortController();
  const { draw, path, query, section } = resolve(location.hash);
  drawNav(section, gatewayOpen);
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
  draw({ root: main, path, query, signal: current.signal });
}

/** Asks the gateway whether it wants a token (and whether the kept one is still good), then draws the route. */
async function start(reason?: string): Promise<void> {
  current?.abort();
  replace(nav);
  replace(main, status("Connecting to the gateway…"));
  let need = reason;
  if (!need) {
    try {
      await request("/v1/jobs?limit=1", { bearer: token() });
      gatewayOpen = !token();
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) {
        replace(main, status(`The gateway could not be reached: ${error instanceof Error ? error.message : String(error)}`, "error"));
        return;
      }
      need = token() ? "The token kept for this tab is no longer accepted; sign in again." : undefined;
      setToken(null);
      await login(main, need);
      gatewayOpen = false;
    }
  } else {
    setToken(null);
    await login(main, need);
  }
  render();
}

whenUnauthorized((error) => void start(`The gateway refused the token (${error.message}); sign in again.`));
window.addEventListener("hashchange", render);
void start();
