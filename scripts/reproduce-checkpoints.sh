#!/usr/bin/env bash
# Rebuilds the shipped checkpoints and the results table from scratch:
# scripted demos → BC pretraining → PPO fine-tuning (3 training seeds) → evaluation table and curves.
# Usage: npm run reproduce [-- STAGE [TASK...]]   STAGE: all (default) | bc | ppo | results | recipe | locomotion | methods
# TASK...: only these tasks' BC and PPO runs (e.g. stack-cube pick-cube-pointcloud); run `-- results` after them.
# recipe (not part of all): BC → stage 2 offline → PPO on lift and pick-cube, against the ppo stage's BC → PPO runs.
# locomotion (not part of all): ReinFlow's Gym recipe in kind on hopper and walker2d (DESIGN.md §14):
# Gaussian PPO from scratch (3 seeds) → seed 0's checkpoint nearest D4RL's medium level → a 1M-transition
# "medium" dataset sampled from it → flow BC → flow PPO with the locomotion-reinflow preset (3 seeds; walker2d
# with ReinFlow's walker2d learning rates) → diffusion BC on the same medium dataset (the flow BC's widths, T = 20)
# → DPPO with the dppo preset (3 seeds) → the table.
# methods (not part of all): every fine-tuning method of src/cli/methods.ts (Gaussian PPO from scratch, BC → Flow-SDE,
# BC → learned noise, diffusion BC → DPPO, ShortCut BC → ReinFlow) on hopper, walker2d, pick-cube and pick-cube-rgb
# (TASK...: these rows only), 3 seeds each: trains the runs that are missing (their commands come from
# src/cli/methods-plan.ts), first building the BC checkpoints they start from as the stages above do, then writes
# public/results/methods.md and its figures (npm run results -- compare=methods). METHODS_WALL_NOTE, when set, says
# under the table what shared the machine while the runs trained.
# The BC checkpoints are deliberately imperfect (few or noisy demos) so online RL has room.
set -euo pipefail
cd "$(dirname "$0")/.."
stage="${1:-all}"
only=("${@:2}")
# True when TASK was named on the command line, or none was.
selected() { [[ ${#only[@]} -eq 0 || " ${only[*]} " == *" $1 "* ]]; }
work="runs/reproduce"
ckpt="public/checkpoints"
mkdir -p "$work" "$ckpt"
arch="policy.hidden=128,128,128 policy.encoder_hidden=128,128 policy.value_hidden=128,128"

# task  demo-episodes  expert-noise  bc-episodes  bc-steps
bc_recipe=(
  "reach 200 0.3 8 600"
  "lift 60 0.05 5 1200"
  "pick-cube 200 0.3 80 6000"
  "stack-cube 200 0.1 80 6000"
  "peg-insertion 200 0.1 200 10000"
)
# The point-cloud variant of pick-cube: ManiFlow's policy family (DiT-X on a PointNet encoder, DESIGN.md §3).
pc_arch="policy.velocity_net=ditx policy.ditx_dim=64 policy.ditx_depth=2 policy.ditx_heads=4 policy.encoder_hidden=32,64 policy.value_hidden=128,128"
pc_points=128
# Fine-tuning runs `npm run train` with nothing but the task, checkpoint, seed and output folder:
# what a user who changes no setting gets (the run-config defaults, DESIGN.md §4).
ppo_tasks=(lift pick-cube pick-cube-pointcloud stack-cube peg-insertion)
# Overrides beyond the defaults, per task (empty: the defaults alone). stack-cube's 1 cm placement
# needs steadier updates: at the default actor lr (3e-5) its success swung between checkpoints and
# levelled off near 70%, so it trains at 1e-5 for twice the budget.
declare -A ppo_extra=([stack-cube]="actor_lr=0.00001 total_env_steps=2000000")
ppo_seeds=(0 1 2)
# The recipe comparison: stage 2 (npm run offline, its defaults) on the same demos BC used, per training seed.
recipe_tasks=(lift pick-cube)

# The bc_recipe entry of a task, without its name: demo-episodes expert-noise bc-episodes bc-steps.
recipe_of() {
  local recipe
  for recipe in "${bc_recipe[@]}"; do
    [[ "${recipe%% *}" == "$1" ]] && { echo "${recipe#* }"; return 0; }
  done
  echo "no BC recipe for $1 in bc_recipe" >&2
  return 1
}
# npm run pretrain, continuing a stopped BC where it left OUT.resume.
pretrain() {
  local arg out=""
  for arg in "$@"; do [[ "$arg" == out=* ]] && out="${arg#out=}"; done
  if [[ -n "$out" && -f "$out.resume" ]]; then npm run --silent pretrain -- "$@" resume=true; else npm run --silent pretrain -- "$@"; fi
}
# The scripted demos BC learns from (deterministic for a seed, so made again only when missing).
demos_of() {
  local task="$1" demo_episodes noise episodes steps
  read -r demo_episodes noise episodes steps <<<"$(recipe_of "$task")"
  npm run --silent demos -- task="$task" episodes="$demo_episodes" seed=0 noise="$noise" out="$work/$task.demos"
}
# A task's BC checkpoint from its demos, with the policy keys after TASK OUT ($arch: flow BC's).
bc_from_demos() {
  local task="$1" out="$2" demo_episodes noise episodes steps
  read -r demo_episodes noise episodes steps <<<"$(recipe_of "$task")"
  pretrain task="$task" demos="$work/$task.demos" episodes="$episodes" steps="$steps" \
    out="$out" eval_episodes=100 "${@:3}"
}

if [[ "$stage" == all || "$stage" == bc ]]; then
  for recipe in "${bc_recipe[@]}"; do
    task="${recipe%% *}"
    selected "$task" || continue
    demos_of "$task"
    bc_from_demos "$task" "$ckpt/$task-bc.flowtune" $arch
  done
  if selected pick-cube-pointcloud; then
    npm run --silent demos -- task=pick-cube episodes=200 seed=0 noise=0.3 obs=pointcloud num_points=$pc_points out="$work/pick-cube-pointcloud.demos"
    pretrain task=pick-cube demos="$work/pick-cube-pointcloud.demos" episodes=80 steps=3000 batch_size=128 \
      out="$ckpt/pick-cube-pointcloud-bc.flowtune" eval_episodes=100 $pc_arch
  fi
fi

if [[ "$stage" == all || "$stage" == ppo ]]; then
  for task in "${ppo_tasks[@]}"; do
    selected "$task" || continue
    for seed in "${ppo_seeds[@]}"; do
      rm -rf "$work/$task-ppo-s$seed"
      # A point-cloud variant's checkpoint brings its observation and architecture with it.
      npm run --silent train -- task="${task%-pointcloud}" ckpt="$ckpt/$task-bc.flowtune" out="$work/$task-ppo-s$seed" overwrite=true seed="$seed" ${ppo_extra[$task]:-}
    done
    cp "$work/$task-ppo-s0/checkpoints/final.flowtune" "$ckpt/$task-ppo.flowtune"
  done
fi

# With a task list the ppo stage trains those tasks only; `-- results` then rebuilds the tables.
if [[ "$stage" == all || ( "$stage" == ppo && ${#only[@]} -eq 0 ) || "$stage" == results ]]; then
  # BC and every seed's final checkpoint on the same 100 fresh seeds (2000000 on), apart from training and in-run eval.
  tasks=$(IFS=,; echo "${ppo_tasks[*]}")
  curves=$(for task in "${ppo_tasks[@]}"; do for seed in "${ppo_seeds[@]}"; do printf '%s,' "$work/$task-ppo-s$seed"; done; done)
  npm run --silent results -- tasks="$tasks" seeds=0,1,2 runs="$work" ckpts="$ckpt" episodes=100 seed=2000000 out=public/results/results.md
  npm run --silent plot -- runs="${curves%,}" \
    metric=charts/success_rate smoothing=0.9 out=public/results/learning-curves.png
fi

if [[ "$stage" == recipe ]]; then
  for recipe in "${bc_recipe[@]}"; do
    read -r task demo_episodes noise episodes steps <<<"$recipe"
    [[ " ${recipe_tasks[*]} " == *" $task "* ]] || continue
    # Demos are deterministic for a seed, so this is the file BC pretrained on.
    [[ -f "$work/$task.demos" ]] || demos_of "$task"
    for seed in "${ppo_seeds[@]}"; do
      npm run --silent offline -- task="$task" ckpt="$ckpt/$task-bc.flowtune" demos="$work/$task.demos" episodes="$episodes" seed="$seed" \
        eval_episodes=100 out="$work/$task-offline-s$seed.flowtune"
      rm -rf "$work/$task-offline-ppo-s$seed"
      npm run --silent train -- task="$task" ckpt="$work/$task-offline-s$seed.flowtune" out="$work/$task-offline-ppo-s$seed" overwrite=true seed="$seed"
    done
  done
  tasks=$(IFS=,; echo "${recipe_tasks[*]}")
  npm run --silent results -- compare=recipe tasks="$tasks" seeds=0,1,2 runs="$work" ckpts="$ckpt" episodes=100 seed=2000000 out=public/results/recipe.md
fi

# ReinFlow's Gym recipe in kind (DESIGN.md §14), one step per function, for the locomotion and methods stages.
loco_tasks=(hopper walker2d)
# ReinFlow's Gym policies act in chunks of 4 on the current state; BC runs long on the 1M transitions.
loco_arch="policy.horizon=4 policy.n_action_steps=4 policy.n_obs_steps=1 policy.denoise_steps=4"
# A diffusion policy over DPPO's 20 DDPM steps (DESIGN.md §17), from the same data and widths as the flow BC beside it.
diffusion_bc="policy.kind=diffusion policy.denoise_steps=20 policy.denoised_clamp=1"
# ReinFlow's per-task settings (its cfg/gym/finetune/<task>-v2/ft_ppo_reflow_mlp.yaml); the preset holds hopper's.
# Walker2d's critic lr is 10× hopper's and warms up for 5 iterations first (here 5 of ours, 40k env steps); its actor
# keeps the preset's step, since ReinFlow's walker2d actor lr over whole-rollout epochs left the clip nearly idle here.
# The medium policy's in-run return: D4RL's hopper-medium policy returns about 1400-1500 (ReinFlow's BC
# start 1432), its walker2d-medium one about 2700-3000 (ReinFlow's 2740).
declare -A medium_return=([hopper]=1450 [walker2d]=2740)
# The medium data's action noise, as a multiple of the medium policy's own σ. At σ (about 0.62 at walker2d's medium
# checkpoint) the samples return far below the policy's mean action (1471 against 2378 there), where D4RL's medium
# data return about their policy's level; at 0.25σ they return about 2640 on 20k transitions. Hopper's rows were
# made at its own σ.
declare -A medium_std_scale=([hopper]=1 [walker2d]=0.25)
declare -A loco_lr=([hopper]="" [walker2d]="critic_lr=4e-3 ppo.critic_warmup_steps=40000")

# Gaussian PPO from scratch; seed 0 is the expert the medium data comes from: it evaluates and saves every 10 iterations.
loco_gaussian() {
  local task="$1" seed="$2" extra=""
  [[ "$seed" == 0 ]] && extra="eval.every=10 checkpoint_every=10 eval_episodes=5"
  npm run --silent train -- task="$task" preset=gaussian-ppo seed="$seed" out="$work/$task-gaussian-s$seed" overwrite=true $extra
}
# The 1M-transition "medium" dataset, sampled from seed 0's checkpoint nearest D4RL's medium level.
loco_medium_demos() {
  local task="$1" medium
  medium=$(npx tsx src/cli/pick-checkpoint.ts run="$work/$task-gaussian-s0" return="${medium_return[$task]}")
  npm run --silent demos -- task="$task" policy="$medium" steps=1000000 seed=0 std_scale="${medium_std_scale[$task]}" \
    out="$work/$task-medium.demos"
}
# Flow BC, or with $diffusion_bc DPPO's diffusion BC, on the medium dataset.
loco_bc() {
  local task="$1" out="$2"
  pretrain task="$task" demos="$work/$task-medium.demos" steps=20000 batch_size=256 \
    out="$out" eval_episodes=100 $loco_arch "${@:3}"
}

if [[ "$stage" == locomotion ]]; then
  for task in "${loco_tasks[@]}"; do
    selected "$task" || continue
    for seed in "${ppo_seeds[@]}"; do
      loco_gaussian "$task" "$seed"
    done
    loco_medium_demos "$task"
    loco_bc "$task" "$ckpt/$task-bc.flowtune"
    for seed in "${ppo_seeds[@]}"; do
      npm run --silent train -- task="$task" ckpt="$ckpt/$task-bc.flowtune" preset=locomotion-reinflow seed="$seed" \
        out="$work/$task-ppo-s$seed" overwrite=true ${loco_lr[$task]}
    done
    # Seed 0's 1M-step checkpoint. The shipped hopper-ppo.flowtune and walker2d-ppo.flowtune are instead seeds 1 and 0
    # resumed toward 3M env steps (resume=true total_env_steps=3000000) and picked by 100-episode evaluations, as
    # README's Locomotion section says.
    cp "$work/$task-ppo-s0/checkpoints/final.flowtune" "$ckpt/$task-ppo.flowtune"
    # DPPO (DESIGN.md §17): the same dataset, widths and chunks, an ε net over DPPO's 20 DDPM steps.
    loco_bc "$task" "$ckpt/$task-diffusion-bc.flowtune" $diffusion_bc
    for seed in "${ppo_seeds[@]}"; do
      npm run --silent train -- task="$task" ckpt="$ckpt/$task-diffusion-bc.flowtune" preset=dppo seed="$seed" \
        out="$work/$task-dppo-s$seed" overwrite=true
    done
  done
  tasks=$(IFS=,; echo "${loco_tasks[*]}")
  npm run --silent results -- compare=locomotion tasks="$tasks" seeds=0,1,2 runs="$work" ckpts="$ckpt" episodes=100 seed=2000000 out=public/results/locomotion.md
fi

if [[ "$stage" == methods ]]; then
  method_rows=(hopper walker2d pick-cube pick-cube-rgb)
  # Seed 003's ShortCut net (its ShortCutVelocityUNet1D: H 16 with 8 executed, K 8, one observation frame), as
  # preset=reinflow-pickcube-rgb fine-tunes it, with the encoder and value widths of $arch (its policy.hidden sizes the MLP only).
  shortcut_net="policy.velocity_net=unet1d policy.horizon=16 policy.n_action_steps=8 policy.n_obs_steps=1 policy.denoise_steps=8 policy.encoder_hidden=128,128 policy.value_hidden=128,128"
  # A row's BC checkpoint of one kind (bc, diffusion-bc, shortcut-bc), made as the stages above make them.
  methods_start() {
    local row="$1" kind="$2" out="$3" task="${1%-rgb}"
    if [[ " ${loco_tasks[*]} " == *" $row "* ]]; then
      [[ -f "$work/$row-gaussian-s0/checkpoints/final.flowtune" ]] || loco_gaussian "$row" 0
      [[ -f "$work/$row-medium.demos" ]] || loco_medium_demos "$row"
      case "$kind" in
        bc) loco_bc "$row" "$out" ;;
        diffusion-bc) loco_bc "$row" "$out" $diffusion_bc ;;
        *) echo "no recipe for $row's $kind checkpoint" >&2; return 1 ;;
      esac
    elif [[ "$row" == *-rgb ]]; then
      # The camera's demos: the task's scripted expert, its first camera at 64×64; images keep no history.
      [[ -f "$work/$row.demos" ]] || npm run --silent demos -- task="$task" episodes=200 seed=0 noise=0.3 obs=rgb out="$work/$row.demos"
      case "$kind" in
        bc) pretrain task="$task" demos="$work/$row.demos" episodes=80 steps=3000 batch_size=128 \
          out="$out" eval_episodes=100 $arch policy.n_obs_steps=1 ;;
        diffusion-bc) pretrain task="$task" demos="$work/$row.demos" episodes=80 steps=3000 batch_size=128 \
          out="$out" eval_episodes=100 $arch policy.n_obs_steps=1 $diffusion_bc ;;
        shortcut-bc) pretrain task="$task" demos="$work/$row.demos" episodes=80 steps=3000 batch_size=128 \
          out="$out" eval_episodes=100 $shortcut_net ;;
        *) echo "no recipe for $row's $kind checkpoint" >&2; return 1 ;;
      esac
    else
      [[ -f "$work/$row.demos" ]] || demos_of "$row"
      case "$kind" in
        bc) bc_from_demos "$row" "$out" $arch ;;
        diffusion-bc) bc_from_demos "$row" "$out" $arch $diffusion_bc ;;
        shortcut-bc) bc_from_demos "$row" "$out" $shortcut_net ;;
        *) echo "no recipe for $row's $kind checkpoint" >&2; return 1 ;;
      esac
    fi
  }
  rows=()
  for row in "${method_rows[@]}"; do selected "$row" && rows+=("$row"); done
  [[ ${#rows[@]} -gt 0 ]] || { echo "no methods row among: ${only[*]} (rows: ${method_rows[*]})" >&2; exit 2; }
  tasks=$(IFS=,; echo "${rows[*]}")
  # Read whole before anything runs (a failed plan stops the stage), so no command of the loops reads it as stdin.
  plan_text=$(npx tsx src/cli/methods-plan.ts tasks="$tasks" seeds=0,1,2 runs="$work" ckpts="$ckpt")
  mapfile -t plan <<<"$plan_text"
  for line in "${plan[@]}"; do
    IFS=$'\t' read -r what file detail <<<"$line"
    [[ "$what" == start ]] || continue
    read -r row kind <<<"$detail"
    methods_start "$row" "$kind" "$file"
  done
  for line in "${plan[@]}"; do
    IFS=$'\t' read -r what dir args <<<"$line"
    [[ "$what" == train ]] || continue
    # Seed 0's Gaussian run may have been trained above, as the expert a medium dataset came from.
    [[ -f "$dir/checkpoints/final.flowtune" ]] && continue
    npm run --silent train -- $args
  done
  npm run --silent results -- compare=methods tasks="$tasks" seeds=0,1,2 runs="$work" ckpts="$ckpt" episodes=100 seed=2000000 \
    out=public/results/methods.md wall_note="${METHODS_WALL_NOTE:-}"
fi
