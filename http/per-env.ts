// A Worker's ports built once per isolate: the first call with a bindings object builds them, later calls get the same.

/** `build`, remembered per bindings object (workerd passes the same `env` to every call of an isolate). */
export function perEnv<E extends object, P>(build: (env: E) => P): (env: E) => P {
  const cache = new WeakMap<E, P>();
  return (env) => {
    let built = cache.get(env);
    if (built === undefined) cache.set(env, (built = build(env)));
    return built;
  };
}
