// The build's edit of React's Node stream renderer (vite.config.ts, nodeStreamReactDomServer).

/**
 * React's Node stream renderer writes the page in many small pieces (every tag's start and end, each
 * attribute, each text): those built once (tags' ends, `="`, `>`…) as Uint8Arrays, the rest as
 * strings, and each string goes into the 4 KB output buffer with its own `TextEncoder.encodeInto`
 * (a view, a native call and a result object each). That writing was 5–7% of a page's Worker time,
 * and the pieces' byte lengths, which React adds up as each part of the page completes, another
 * 2–4% (`Buffer.byteLength`, a call into the runtime's Node layer each). So, in the production
 * renderer only:
 * - the built-once pieces stay strings (as in React's own builds for runtimes without Uint8Array
 *   streams), so every piece is a string;
 * - pieces are joined in a string and encoded 4 KB or more at a time: what reaches the stream is
 *   the same bytes, in fewer, larger chunks (the renderer still flushes whatever it holds at the
 *   end of each flush, so nothing waits longer);
 * - a piece's size is its length (UTF-16 units), not its UTF-8 byte length: React adds the sizes up
 *   only to decide whether a Suspense boundary that completed before its flush is inlined or sent
 *   apart (over 500, and past its 12,800 progressive chunk), a layout choice, never what the page
 *   says; some of React's builds do not count at all. Checking each piece's characters for ASCII
 *   first made V8 flatten every concatenated string there, 6–10% of the dashboard's own time.
 *   Non-ASCII text counts less, so such a boundary is inlined sooner (readable without
 *   JavaScript).
 * Each edit must match React's file exactly once, or the build fails naming it (a React upgrade
 * that changes these functions has to be looked at again). docs/decisions/030.
 */
export function textChunks(code: string): string {
  const edits: [name: string, from: string, to: string][] = [
    [
      "stringToPrecomputedChunk",
      "function stringToPrecomputedChunk(content) {\n  return textEncoder.encode(content);\n}",
      "function stringToPrecomputedChunk(content) {\n  return content;\n}",
    ],
    [
      "byteLengthOfChunk",
      'function byteLengthOfChunk(chunk) {\n  return "string" === typeof chunk\n    ? Buffer.byteLength(chunk, "utf8")\n    : chunk.byteLength;\n}',
      'function byteLengthOfChunk(chunk) {\n  return "string" === typeof chunk ? chunk.length : chunk.byteLength;\n}',
    ],
    [
      "writeChunk",
      "function writeChunk(destination, chunk) {\n",
      `var pendingText = "";
function writeChunk(destination, chunk) {
  if ("string" === typeof chunk) {
    pendingText += chunk;
    4096 <= pendingText.length && writePendingText(destination);
  } else writePendingText(destination), writeChunkNow(destination, chunk);
}
function writePendingText(destination) {
  if (0 !== pendingText.length) {
    var text = pendingText;
    pendingText = "";
    writeChunkNow(destination, text);
  }
}
function writeChunkNow(destination, chunk) {
`,
    ],
    [
      "completeWriting",
      "function completeWriting(destination) {\n",
      "function completeWriting(destination) {\n  writePendingText(destination);\n",
    ],
  ];
  let out = code;
  for (const [name, from, to] of edits) {
    const at = out.indexOf(from);
    if (at === -1 || out.indexOf(from, at + 1) !== -1) {
      throw new Error(
        `dunly:react-dom-server-node: ${name} in react-dom-server.node.production.js is not what vite.config.ts's textChunks expects (React upgraded?)`,
      );
    }
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return out;
}
