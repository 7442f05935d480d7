#!/usr/bin/env bash
# Rebuilds the shipped checkpoints from scratch: scripted demos → BC pretraining → PPO fine-tuning.
# Usage: npm run reproduce [-- STAGE]   STAGE: all (default) | bc | ppo
# The BC checkpoints are deliberately imperfect (few, noisy demos) so online RL has room.
set -euo pipefail
cd "$(dirname "$0")/.."
stage="${1:-all}"
work="runs/reproduce"
ckpt="public/checkpoints"
mkdir -p "$work" "$ckpt"
arch="policy.hidden=128,128,128 policy.encoder_hidden=128,128 policy.value_hidden=128,128"

# task  demo-episodes  bc-steps
bc_recipe=(
  "reach 8 600"
  "lift 12 3000"
  "pick-cube 50 5000"
)

if [[ "$stage" == all || "$stage" == bc ]]; then
  for recipe in "${bc_recipe[@]}"; do
    read -r task episodes steps <<<"$recipe"
    npm run --silent demos -- task="$task" episodes=200 seed=0 noise=0.3 out="$work/$task.demos"
    npm run --silent pretrain -- task="$task" demos="$work/$task.demos" episodes="$episodes" steps="$steps" \
      out="$ckpt/$task-bc.flowtune" eval_episodes=100 $arch
  done
fi

if [[ "$stage" == all || "$stage" == ppo ]]; then
  for task in lift pick-cube; do
    # The run-config defaults (Flow-SDE hybrid, a = 0.5, K = 4, actor lr 3e-5), 300 iterations (~610k env steps).
    npm run --silent train -- task="$task" ckpt="$ckpt/$task-bc.flowtune" out="$work/$task-ppo-long" seed=0 \
      iterations=300 eval_episodes=50 eval.every=50
    cp "$work/$task-ppo-long/checkpoints/final.flowtune" "$ckpt/$task-ppo.flowtune"
  done
fi
