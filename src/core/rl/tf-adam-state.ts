import * as tf from '@tensorflow/tfjs';
import { CheckpointError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';

/**
 * tfjs Adam's state (the BC stages' optimizer), so a stopped BC continues exactly: the step count,
 * the running powers β1^(t+1) and β2^(t+1) as float32 (tfjs multiplies them up step by step, which
 * pow(β, t+1) does not reproduce to the last bit), and each parameter's moments in the order the
 * optimizer applies them, named by the policy's parameter names (tf variable names differ per process).
 */
export interface TfAdamState {
  iterations: number;
  accBeta1: number;
  accBeta2: number;
  slots: { name: string; m: Float32Array; v: Float32Array }[];
}

/** The fields of tfjs's AdamOptimizer that its public getWeights/setWeights leave out. */
interface AdamInternals {
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
}

function internals(optimizer: tf.Optimizer): AdamInternals {
  const fields = optimizer as unknown as Partial<AdamInternals>;
  if (!(fields.accBeta1 instanceof tf.Variable) || !(fields.accBeta2 instanceof tf.Variable)) {
    throw new TypeError('BC optimizer state: expected tfjs AdamOptimizer (accBeta1, accBeta2)');
  }
  return fields as AdamInternals;
}

function parameterNames(policy: FlowPolicy): Map<string, string> {
  return new Map([...policy.namedVariables()].map(([name, variable]) => [variable.name, name] as const));
}

/** tfjs ties each moment to its position among the gradients, so a state must cover what BC trains, in its order. */
function checkSlotOrder(names: readonly string[], policy: FlowPolicy, fail: (message: string) => Error): void {
  const trained = policy.bcVariables().map(([name]) => name);
  if (names.length === trained.length && names.every((name, index) => name === trained[index])) return;
  const missing = trained.find((name) => !names.includes(name));
  const extra = names.find((name) => !trained.includes(name));
  throw fail(`BC optimizer state ${missing ? `has no moments for '${missing}'` : extra ? `has moments for '${extra}', which BC does not train in this policy` : 'holds its moments out of the parameters\' order'}`);
}

/** Reads the optimizer's state; the moments are copies. */
export async function readTfAdam(optimizer: tf.Optimizer, policy: FlowPolicy): Promise<TfAdamState> {
  const { accBeta1, accBeta2 } = internals(optimizer);
  const [iteration, ...moments] = await optimizer.getWeights();
  const names = parameterNames(policy);
  const half = moments.length / 2;
  const slots: TfAdamState['slots'] = [];
  for (let index = 0; index < half; index++) {
    const first = moments[index];
    const name = names.get(first.name.replace(/\/m$/, ''));
    if (!name) throw new TypeError(`BC optimizer state: moment '${first.name}' belongs to no parameter of the policy`);
    slots.push({ name, m: (await first.tensor.data()) as Float32Array, v: (await moments[half + index].tensor.data()) as Float32Array });
  }
  // Every parameter BC trains has a gradient at every step, so this is a bug, not a bad file.
  checkSlotOrder(slots.map((slot) => slot.name), policy, (message) => new TypeError(message));
  return {
    iterations: (await iteration.tensor.data())[0],
    accBeta1: (await accBeta1.data())[0],
    accBeta2: (await accBeta2.data())[0],
    slots,
  };
}

/** Puts a read state into a fresh optimizer of the same settings, before its first step; a slot the policy lacks, or of another size, is a CheckpointError. */
export async function restoreTfAdam(optimizer: tf.Optimizer, policy: FlowPolicy, state: TfAdamState): Promise<void> {
  checkSlotOrder(state.slots.map((slot) => slot.name), policy, (message) => new CheckpointError(message));
  const variables = policy.namedVariables();
  const moment = (which: 'm' | 'v') => state.slots.map((slot) => {
    const variable = variables.get(slot.name);
    if (!variable) throw new CheckpointError(`BC optimizer state has moments for '${slot.name}', which this policy does not have`);
    const values = slot[which];
    if (values.length !== variable.size) throw new CheckpointError(`BC optimizer state for '${slot.name}' holds ${values.length} values, but the parameter has ${variable.size}`);
    return { name: `${variable.name}/${which}`, tensor: tf.tensor(values, variable.shape) };
  });
  const weights = [{ name: 'iter', tensor: tf.scalar(state.iterations, 'int32') }, ...moment('m'), ...moment('v')];
  try {
    await optimizer.setWeights(weights);
    const { accBeta1, accBeta2 } = internals(optimizer);
    tf.tidy(() => {
      accBeta1.assign(tf.scalar(state.accBeta1));
      accBeta2.assign(tf.scalar(state.accBeta2));
    });
  } finally {
    // setWeights copies each tensor into a variable of its own.
    tf.dispose(weights.map((weight) => weight.tensor));
  }
}
