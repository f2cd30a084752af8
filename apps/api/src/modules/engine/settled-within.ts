/** Whether `promise` settles within `ms` (a rejection counts as settled); never throws. */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  const done = promise.then(
    () => true,
    () => true,
  );
  const result = await Promise.race([done, timeout]);
  clearTimeout(timer);
  return result;
}
