// Names shared by the NeMo Gym container's Worker (container-worker.ts) and its wrangler config (infra/nemo-gym-container.ts).

/** The port `ng_run` serves on inside the container (the Dockerfile's server_only.yaml). */
export const NEMO_GYM_PORT = 8000;
/** The Durable Object class the container is attached to, and its binding. */
export const CONTAINER_CLASS = "NemoGymServer";
export const CONTAINER_BINDING = "SERVER";
