"""tyro.cli for a dataclass of flags: `--name value` or `--name=value`, dashes or underscores."""
import dataclasses
import sys


def cli(cls):
    args = cls()
    names = {field.name for field in dataclasses.fields(cls)}
    argv = sys.argv[1:]
    index = 0
    while index < len(argv):
        flag = argv[index][2:]
        if '=' in flag:
            flag, value = flag.split('=', 1)
        else:
            index += 1
            value = argv[index]
        name = flag.replace('-', '_')
        if name not in names:
            raise SystemExit(f'unknown flag --{flag}')
        current = getattr(args, name)
        if isinstance(current, bool):
            value = value.lower() in ('1', 'true', 'yes')
        elif isinstance(current, int):
            value = int(value)
        elif isinstance(current, float) or current is None and name == 'target_kl':
            value = float(value)
        setattr(args, name, value)
        index += 1
    return args
