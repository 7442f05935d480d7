"""torch.utils.tensorboard's SummaryWriter as a CSV of (tag, step, value) in the run folder."""
import os
import sys
import types


class SummaryWriter:
    def __init__(self, path):
        os.makedirs(path, exist_ok=True)
        self._file = open(os.path.join(path, 'scalars.csv'), 'w')

    def add_text(self, *args, **kwargs):
        pass

    def add_scalar(self, tag, value, step):
        self._file.write(f'{tag},{step},{float(value)}\n')
        self._file.flush()

    def close(self):
        self._file.close()


module = types.ModuleType('torch.utils.tensorboard')
module.SummaryWriter = SummaryWriter
sys.modules['torch.utils.tensorboard'] = module
