// Batches the calls made in one turn of the event loop into one request to another server.
export type Shared<T> = { value: T; place: number; calls: number };

/**
 * One request to another server for all the calls of one turn of the event loop. The first
 * call for a key opens a batch and every call for that key in the same turn joins it; once
 * the turn's own work is done the batch is sent, with the number of calls that joined, and
 * each call gets the answer with its place in the batch (1 for the first). A batch already
 * sent is never joined, so whatever a call is answered was asked after the call began: a read
 * shared this way is as fresh as a read of its own.
 */
export function batchCalls<T>(send: (key: string, calls: number) => Promise<T>): (key: string) => Promise<Shared<T>> {
  const open = new Map<string, { calls: number; answer: Promise<T> }>();
  return (key) => {
    let batch = open.get(key);
    if (!batch) {
      const joined = { calls: 0 };
      const answer = new Promise<T>((resolve, reject) =>
        setImmediate(() => {
          open.delete(key);
          send(key, joined.calls).then(resolve, reject);
        }),
      );
      open.set(key, (batch = Object.assign(joined, { answer })));
    }
    const b = batch;
    const place = ++b.calls;
    return b.answer.then((value) => ({ value, place, calls: b.calls }));
  };
}
