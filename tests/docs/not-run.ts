// The documented commands this suite does not run, each with the reason, and the ones other test files run; and the
// entries that fail today until the work that fixes them is merged.
import { PROJECT_ROOT } from "../../local/paths.js";

/** Commands that cannot run here (no network, no account, no NeMo Gym, or `npm test` itself), with the reason. */
export const NOT_RUN_HERE: Record<string, string> = {
  "npm install && npm test": "npm test is the run this suite is part of (recursion); npm install needs the registry",
  "npm test": "the run this suite is part of (recursion)",
  "npm install":
    "needs the npm registry (this suite is offline, its clone uses the installed node_modules); tests/infra/fresh-install.test.ts checks what it brings (no EBADENGINE, Chromium from npm)",
  "npx vitest run tests/aws": "a part of npm test (tests/aws runs in it)",
  "npm run bench": "about 12 minutes of load (README); tests/bench/cpu-measure.test.ts checks its measuring",
  "npm run bench -- --quick": "minutes of full load on a shared 2-core machine; bench/ is checked by tests/bench",
  "npm run bench -- --only schedulers": "about 3 minutes of full load (8,192 rollouts per scheduler and case) on a shared 2-core machine",
  "npm run test:trl":
    "installs TRL and a CPU torch into a virtual environment and trains on CPU (minutes): its own script, not part of npm test; integrations/tests/test_edgegym_trl.py checks its rollout_func in npm test",
  ".edgegym/venv-trl/bin/pip install --index-url file:///opt/pypi/simple --extra-index-url file:///opt/pypi-more/simple --find-links /opt/wheels trl transformers accelerate datasets torch":
    "the install npm run test:trl does itself (integrations/trl/run_test.sh); a local package index only some machines have",
  "ng_collect_rollouts +input_jsonl_fpath=rows.jsonl +output_jsonl_fpath=out/rollouts.jsonl +num_repeats=4 +agent_name=mcqa_simple_agent":
    "needs a NeMo Gym installation; tests/integrations/nemo-gym-dropin.test.ts replays its collector's requests through the agent server",
  "ng_collect_rollouts +input_jsonl_fpath=data.jsonl +output_jsonl_fpath=out/rollouts.jsonl +num_repeats=4 +agent_name=example_multi_step_simple_agent":
    "needs a NeMo Gym installation; tests/integrations/nemo-gym-dropin.test.ts replays its collector's requests through the agent server",
  "ng_collect_rollouts +input_jsonl_fpath=environments/example_multi_step/data/example.jsonl +output_jsonl_fpath=out/rollouts.jsonl +num_repeats=4 +agent_name=example_multi_step_simple_agent":
    "needs a NeMo Gym installation; tests/integrations/nemo-gym-dropin.test.ts replays its collector's requests through the agent server",
  "npm run bench -- --only scale":
    "a benchmark (65,536 rollouts at 2 s per model call, about 6 minutes of load); the pacer it measures is tested by tests/local/gc-pacer.test.ts",
  "npm run bench -- --only cost":
    "a benchmark (2,304 rollouts through the emulation with counting on, a minute or more); its arithmetic is tested by tests/bench/cost-model.test.ts and its counters by tests/bench/counting.test.ts",
  "npm run bench -- --only overload":
    "16,384 calls at once: minutes of full load on a shared 2-core machine; the local edge it goes through is tested by tests/local/edge.test.ts and tests/security/slow-clients.test.ts",
  "npm run bench -- --only sandbox":
    "a benchmark (sandbox starts under load, a minute or more, as root); what it times is tested by tests/sandbox (service, hostile code, emulation)",
  "EDGEGYM_SANDBOX_PROVIDER=cloudflare npx sst deploy":
    "a Cloudflare account's credentials; tests/infra/sandbox-deploy.test.ts evaluates the deployment offline",
  "npx wrangler deploy --config .edgegym/containers/sandbox/wrangler.json":
    "a Cloudflare account and Docker (it builds the sandbox image); tests/infra/sandbox-deploy.test.ts checks the config and dry-runs the bundles",
  "npm run typecheck:sst": "sst install (about a minute of npm fetches on a fresh clone), then tsc: tests/infra/deploy-checks.test.ts does exactly that",
  "npm run typecheck": "tsc over the whole project (about 45 s on 2 cores); .ci/run runs the same two tsc projects before npm test",
  "npm run bench -- --only peer --nemo-gym <dir>":
    "a NeMo Gym installation (Python 3.13 and packages this machine's index lacks); tests/bench/peer.test.ts runs its skip path and its refusals of a bad directory",
  "npm run bench -- --only remote":
    "a benchmark (a minute or more of load, three paths in one run); the paths it times are tested by tests/remote (client, worker, lambda)",
  "EDGEGYM_NEMO_GYM_CONTAINER=example_session_state_mgmt npx sst deploy":
    "a Cloudflare account's credentials; tests/remote/container.test.ts evaluates the deployment offline",
  "npx wrangler deploy --config .edgegym/containers/example_session_state_mgmt/wrangler.json":
    "a Cloudflare account and Docker (it builds NeMo Gym's image); tests/remote/container.test.ts checks the config it deploys",
  "npx wrangler secret put NEMO_GYM_TOKEN --config .edgegym/containers/example_session_state_mgmt/wrangler.json": "a Cloudflare account's credentials",
  'ng_run "+config_paths=[session_state_only.yaml]"':
    "needs a NeMo Gym installation; tests/remote/stand_in.py speaks its resources-server protocol (cookie included) in tests/remote",
  "export CLOUDFLARE_API_TOKEN=... CLOUDFLARE_DEFAULT_ACCOUNT_ID=...": "a Cloudflare account's credentials",
  "export AWS_PROFILE=... AWS_REGION=us-east-1": "an AWS account's credentials",
  "export EDGEGYM_QUEUE_URL=https://sqs.us-east-1.amazonaws.com/123456789012/edgegym-prod-RolloutsQueue-…":
    "a deployed AWS stack (tests/aws runs the same against fauxqs)",
  "export EDGEGYM_BUCKET=s3://edgegym-prod-jobsbucket-…/edgegym": "a deployed AWS stack (tests/aws runs the same against fauxqs)",
  "npx edgegym collect --queue-url $EDGEGYM_QUEUE_URL --bucket $EDGEGYM_BUCKET -e example_multi_step -i rows.jsonl -o out.jsonl -n 8":
    "a deployed AWS stack (tests/aws/bucket-jobs.test.ts runs collect against fauxqs)",
  "npx edgegym jobs status <id> --bucket $EDGEGYM_BUCKET [--json]": "a deployed AWS stack (tests/aws/bucket-jobs.test.ts)",
  "npx edgegym jobs results <id> -o out.jsonl --bucket $EDGEGYM_BUCKET [--failures]": "a deployed AWS stack (tests/aws/bucket-jobs.test.ts)",
  "npx edgegym jobs resume <id> --bucket $EDGEGYM_BUCKET --queue-url $EDGEGYM_QUEUE_URL": "a deployed AWS stack (tests/aws/bucket-jobs.test.ts)",
  "npx edgegym jobs cancel <id> --bucket $EDGEGYM_BUCKET": "a deployed AWS stack (tests/aws/bucket-jobs.test.ts)",
  "npx edgegym worker --queue-url $EDGEGYM_QUEUE_URL --bucket $EDGEGYM_BUCKET --concurrency 64":
    "a deployed AWS stack (tests/aws/worker.test.ts runs workers against fauxqs)",
};

/** `npx sst …` needs Cloudflare or AWS and downloads Pulumi; what it deploys is checked offline by tests/infra. */
export function isSstCommand(command: string): boolean {
  return /^(?:[A-Z_]+=\S+ )*npx sst (?:secret set|deploy|remove)\b/.test(command);
}

/** Commands another test file runs as the README shows them: the file, and a string it must contain to say so. */
export const RUN_BY_OTHER_TESTS: Record<string, { file: string; shows: string }> = {
  "npm install && npm start": { file: "tests/cli/start.test.ts", shows: 'path.join(PROJECT_ROOT, "local", "start.ts")' },
  "npm start": { file: "tests/cli/start.test.ts", shows: 'path.join(PROJECT_ROOT, "local", "start.ts")' },
  "npm run check:bundles": { file: "tests/infra/deploy-checks.test.ts", shows: "checkBundles(PROJECT_ROOT)" },
  "npm run chaos": { file: "tests/chaos/chaos.test.ts", shows: "`npm run chaos` runs 10,000" },
  "npx edgegym collect -e session_state -i data/session_state.jsonl -o out/session_state.jsonl --num-repeats 4": {
    file: "tests/remote/collect.test.ts",
    shows: '["collect", "-e", "stand_in", "-i", "rows.jsonl", "-o", "out/rows.jsonl", "--num-repeats", "2"]',
  },
};

/**
 * Entries that fail today, each with what is wrong and the work that fixes it. Their tests are expected to fail
 * (`it.fails`): when the fix is merged they pass, the expectation fails, and the entry must be taken off this list.
 */
export const KNOWN_BROKEN_UNTIL_MERGE: Record<string, string> = {};

export { PROJECT_ROOT };
