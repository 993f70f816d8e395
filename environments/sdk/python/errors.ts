// Python's exceptions as one error class: the Python type name (ValueError, TypeError, ...) and CPython's message.

/** An exception CPython would raise here: `pyType` is its class name, `message` its str(). */
export class PyError extends Error {
  constructor(
    readonly pyType: "ValueError" | "TypeError" | "IndexError" | "OverflowError",
    message: string,
  ) {
    super(message);
    this.name = pyType;
  }
}
