// A refused body's client must be able to read the refusal. A server that closes a connection
// while the client is still sending makes its kernel answer the rest with a reset, and a
// client that is still writing (most send the whole body before they read) then fails with
// the reset instead of reading the answer. So a connection that ends with a body still
// arriving closes in stages (RFC 9112, section 9.6): the answer and the end of what the server
// sends, then the rest of the body read and dropped, until the client has sent it all or
// hangs up, for at most LINGER_BYTES and LINGER_MS, then the connection closed. A client that
// never stops sending is cut off there: what it costs the server is bounded.

const MiB = 1024 * 1024;
/** What a refused client may still send after the answer, and for how long. */
export const LINGER_BYTES = 4 * MiB;
export const LINGER_MS = 3000;

/**
 * Ends `req`'s connection after what was written on it: the rest of its body is read and
 * dropped (no reader gets another byte, nor its end) until it ends or the client hangs up;
 * past LINGER_BYTES nothing more is read, and after LINGER_MS the connection is closed. A
 * client still sending then waits on a full connection with the answer there to read, rather
 * than being reset mid-write, which makes many clients drop what they had received.
 */
export function lingeringClose(req) {
  const socket = req.socket;
  if (socket.destroyed) return;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.once("end", cut);
  let left = LINGER_BYTES;
  req.push = (chunk) => {
    if (chunk === null) cut(); // all of it arrived: nothing is left unread
    return chunk !== null && (left -= chunk.length) >= 0; // false stops reading
  };
  req.resume();
  socket.resume();
  socket.end();
}

/**
 * Makes every answer on `server` that finishes before its request's body end as above: on a
 * connection that closes after it (the client's or the answer's `Connection: close`), a
 * lingering close instead of Node's immediate one; on a connection kept open, where Node
 * reads the rest to reuse the connection, a lingering close once more than LINGER_BYTES of it
 * arrived.
 */
export function lingerOnUnreadBodies(server) {
  server.on("request", (req, res) => {
    res.prependListener("finish", () => {
      if (req.complete) return;
      // Flowing already, the request is not "dumped" by Node, whose parser would then drop
      // the rest without handing it to `push`, uncounted.
      req.resume();
      // Node closes a connection whose answer says so through destroySoon (resOnFinish in
      // node:_http_server), right after this listener.
      if (res._last) return void (req.socket.destroySoon = () => lingeringClose(req));
      let left = LINGER_BYTES;
      const push = req.push;
      req.push = function (chunk, encoding) {
        if (chunk === null || (left -= chunk.length) >= 0) return push.call(this, chunk, encoding);
        lingeringClose(req);
        return false;
      };
    });
  });
}
