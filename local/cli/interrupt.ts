// Ctrl-C for a command that ends its own way (writes what it has, says how to resume): the first SIGINT is the command's
// alone, a second one exits at once.
//
// Miniflare installs a SIGINT hook that stops workerd and exits 130 on the spot; it runs after the command's own handler
// in the same signal, so the command never got to write its output or say anything. `claim()` takes the other SIGINT
// handlers off (the emulation is then stopped by the command, as it always is) and `release()` puts them back.
type Listener = (...args: unknown[]) => void;

export interface Interrupts {
  /** Takes every other SIGINT handler registered so far off until release(): this command's is the only one. */
  claim(): void;
  release(): void;
}

export function onInterrupt(handler: () => void): Interrupts {
  let claimed: Listener[] = [];
  let count = 0;
  const listener = () => {
    // A second Ctrl-C: the user does not want to wait. Exit hooks (Miniflare's stops workerd) still run.
    if (++count > 1) process.exit(130);
    handler();
  };
  process.on("SIGINT", listener);
  return {
    claim() {
      for (const other of process.listeners("SIGINT") as Listener[]) {
        if (other === listener) continue;
        process.off("SIGINT", other);
        claimed.push(other);
      }
    },
    release() {
      process.off("SIGINT", listener);
      for (const other of claimed) process.on("SIGINT", other);
      claimed = [];
    },
  };
}
