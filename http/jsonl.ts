// Lines of a streamed JSONL body, without holding the whole body in memory.
export async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let start = 0;
    let end: number;
    while ((end = buffer.indexOf("\n", start)) >= 0) {
      yield buffer.slice(start, end).replace(/\r$/, "");
      start = end + 1;
    }
    buffer = buffer.slice(start);
  }
  if (buffer.length > 0) yield buffer.replace(/\r$/, "");
}
