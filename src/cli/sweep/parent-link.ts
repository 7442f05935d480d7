/**
 * A run a sweep starts holds an IPC channel to the sweep (or sweep worker) process. When that process
 * dies, even by SIGKILL, the channel closes, and the run stops too: a killed worker's run is taken
 * again elsewhere, so training on here would only burn the machine's cores.
 */
export function stopWithSweepParent(): void {
  if (!process.send) return;
  const stop = () => {
    process.stderr.write('the sweep process that started this run went away: stopping\n');
    process.exit(130);
  };
  // It may have gone while this process was still loading.
  if (!process.connected) stop();
  process.on('disconnect', stop);
  // The channel alone must not keep a finished run alive.
  process.channel?.unref();
}
