"""tyro.cli for a dataclass of flags: `--name value` or `--name=value`, dashes or underscores,
each value converted to its field's annotated type."""
import dataclasses
import sys

CONVERSIONS = {bool: lambda text: text.lower() in ('1', 'true', 'yes'), int: int, float: float}


def cli(cls):
    args = cls()
    types = {field.name: field.type for field in dataclasses.fields(cls)}
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
        if name not in types:
            raise SystemExit(f'unknown flag --{flag}')
        setattr(args, name, CONVERSIONS.get(types[name], str)(value))
        index += 1
    return args
