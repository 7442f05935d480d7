/** A peer's PyTorch checkpoint by its name (`.pt`, `.pth`); nothing else here, so a page can use it without the readers. */
export function isPeerCheckpointName(name: string): boolean {
  return /\.(pt|pth)$/i.test(name);
}
