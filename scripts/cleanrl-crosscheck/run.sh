#!/usr/bin/env bash
# CleanRL's ppo_continuous_action.py on Gymnasium's v4 locomotion envs, run on this machine beside
# Flowtune's Gaussian PPO (README, "Locomotion"). Needs Debian's python3-torch, python3-numpy,
# python3-cloudpickle, python3-typing-extensions and libmujoco-dev, a CleanRL checkout and a
# Gymnasium checkout at v0.29.1 (CleanRL's pinned version). The mujoco Python bindings are
# replaced by stand-ins/mujoco over the native C library; the script itself runs unchanged.
#
#   scripts/cleanrl-crosscheck/run.sh cleanrl ENV_ID SEED OUT [--flag value ...]
#       e.g. Walker2d-v4 1 /tmp/crosscheck; further flags go to the script (--total-timesteps 4096)
#   scripts/cleanrl-crosscheck/run.sh physics FILE.xml STEPS SKIP
#       largest |difference| in qpos and qvel between the C library and the wasm module
#       after control steps 1, 10, 50, 100 and the last
# with CLEANRL_DIR and GYMNASIUM_DIR naming the checkouts.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python=/usr/bin/python3
build="${TMPDIR:-/tmp}/flowtune-cleanrl-crosscheck"
mkdir -p "$build"
gcc -O2 -shared -fPIC "$here/stand-ins/mjshim.c" -o "$build/libmjshim.so" -lmujoco -lm
export MJSHIM="$build/libmjshim.so"

case "${1:-}" in
  cleanrl)
    env_id="$2" seed="$3" out="$4"
    shift 4
    : "${CLEANRL_DIR:?set CLEANRL_DIR to a CleanRL checkout}" "${GYMNASIUM_DIR:?set GYMNASIUM_DIR to a Gymnasium v0.29.1 checkout}"
    mkdir -p "$out"
    cd "$out"
    OMP_NUM_THREADS=1 PYTHONPATH="$here/stand-ins:$GYMNASIUM_DIR" \
      "$python" "$CLEANRL_DIR/cleanrl/ppo_continuous_action.py" --env-id "$env_id" --seed "$seed" --exp-name crosscheck "$@"
    ;;
  physics)
    file="$2" steps="$3" skip="$4"
    "$python" -c "import ctypes, sys; sys.exit(ctypes.CDLL('$MJSHIM').shim_roll(b'$file', $steps, $skip))" > "$build/native.txt"
    (cd "$root" && npx tsx scripts/cleanrl-crosscheck/roll.ts "$file" "$steps" "$skip") > "$build/wasm.txt"
    "$python" - "$build/native.txt" "$build/wasm.txt" <<'PY'
import sys
native, wasm = ([[float(v) for v in line.split()] for line in open(path)] for path in sys.argv[1:])
for step, (a, b) in enumerate(zip(native, wasm), 1):
    if step in (1, 10, 50, 100) or step == len(native):
        print(f'step {step}: largest |difference| {max(abs(x - y) for x, y in zip(a, b)):.3g}')
PY
    ;;
  *)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
