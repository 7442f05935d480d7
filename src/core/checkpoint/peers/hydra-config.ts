import { parse } from 'yaml';
import { CheckpointError } from '../../errors';

/** The biggest Hydra config read (a run's `.hydra/config.yaml` is a few kB). */
const MAX_CONFIG_CHARS = 1 << 20;
/** `${a.b}` references followed in a chain before giving up (a cycle). */
const MAX_REFERENCE_DEPTH = 16;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A peer run's Hydra config (`.hydra/config.yaml`), read as data: YAML with no custom tags, and `${a.b}` references
 * resolved against the file itself. Resolvers that would reach outside the file or run code (`${eval:...}`,
 * `${oc.env:...}`, `${now:...}`) are never run: a setting that needs one reads as absent.
 */
export class HydraConfig {
  private constructor(private readonly root: Record<string, unknown>, readonly name: string) {}

  static parse(text: string, name: string): HydraConfig {
    if (text.length > MAX_CONFIG_CHARS) throw new CheckpointError(`${name} is ${text.length} characters; a Hydra config over ${MAX_CONFIG_CHARS} is not read`);
    let value: unknown;
    try {
      value = parse(text, { customTags: [], maxAliasCount: 100, uniqueKeys: false });
    } catch (error) {
      throw new CheckpointError(`${name} is not YAML this build reads: ${(error as Error).message.split('\n')[0]}`);
    }
    if (!isObject(value)) throw new CheckpointError(`${name} does not hold a mapping at the top, as a Hydra config does`);
    return new HydraConfig(value, name);
  }

  /** The value at a dotted path with its references resolved; undefined where absent or unresolvable. */
  get(path: string): unknown {
    return this.resolve(this.lookup(path), 0);
  }

  /** The first of several paths that holds a value of the wanted type. */
  first<T>(paths: readonly string[], isType: (value: unknown) => value is T): T | undefined {
    for (const path of paths) {
      const value = this.get(path);
      if (isType(value)) return value;
    }
    return undefined;
  }

  private lookup(path: string): unknown {
    let node: unknown = this.root;
    for (const part of path.split('.')) {
      if (!isObject(node) || !Object.hasOwn(node, part)) return undefined;
      node = node[part];
    }
    return node;
  }

  private resolve(value: unknown, depth: number): unknown {
    if (typeof value !== 'string' || !value.includes('${')) return value;
    if (depth >= MAX_REFERENCE_DEPTH) return undefined;
    const whole = /^\$\{([A-Za-z_][\w.]*)\}$/.exec(value);
    if (whole) return this.resolve(this.lookup(whole[1]), depth + 1);
    let unresolved = false;
    const text = value.replace(/\$\{([^}]*)\}/g, (_match, inner: string) => {
      if (!/^[A-Za-z_][\w.]*$/.test(inner)) {
        unresolved = true;
        return '';
      }
      const resolved = this.resolve(this.lookup(inner), depth + 1);
      if (resolved === undefined || isObject(resolved) || Array.isArray(resolved)) unresolved = true;
      return String(resolved);
    });
    return unresolved ? undefined : text;
  }
}

export const isString = (value: unknown): value is string => typeof value === 'string';
export const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
