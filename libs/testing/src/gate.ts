/** A promise held open until the test opens it (resolves) or fails it (rejects). */
export interface Gate {
  promise: Promise<void>;
  open: () => void;
  fail: (error: Error) => void;
}

/** A promise the test settles by hand: a write, a call or a job held open at a chosen point. */
export function gate(): Gate {
  let open = (): void => undefined;
  let fail = (_error: Error): void => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}
