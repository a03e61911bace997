/** Whether a promise has settled (fulfilled or rejected) by the end of this turn of the event loop. */
export async function settled<T>(promise: Promise<T>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}
