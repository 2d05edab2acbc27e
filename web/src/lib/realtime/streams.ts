// Open event streams register a closer here so sign-out can close them all.

const closers = new Set<() => void>();

export function registerStream(close: () => void): () => void {
  closers.add(close);
  return () => closers.delete(close);
}

export function closeAllStreams(): void {
  closers.forEach((close) => close());
  closers.clear();
}
