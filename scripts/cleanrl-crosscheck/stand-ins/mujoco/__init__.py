"""The part of the mujoco Python bindings that Gymnasium 0.29.1's v4 locomotion envs use
(MjModel.from_xml_path, MjData's arrays, mj_resetData, mj_forward, mj_step, mj_rnePostConstraint),
over the native C library through libmjshim.so. Arrays are live numpy views, as in the bindings."""
import ctypes
import os

import numpy as np

_lib = ctypes.CDLL(os.environ.get('MJSHIM', os.path.join(os.path.dirname(__file__), '..', 'libmjshim.so')))
_ptr, _int, _double = ctypes.c_void_p, ctypes.c_int, ctypes.c_double
_doubles = ctypes.POINTER(ctypes.c_double)
for name, restype, argtypes in [
    ('shim_load', _ptr, [ctypes.c_char_p]), ('shim_data', _ptr, [_ptr]), ('shim_size', _int, [_ptr, _int]),
    ('shim_timestep', _double, [_ptr]), ('shim_ctrlrange', _doubles, [_ptr]), ('shim_array', _doubles, [_ptr, _int]),
    ('shim_reset', None, [_ptr, _ptr]), ('shim_forward', None, [_ptr, _ptr]), ('shim_step', None, [_ptr, _ptr, _int]),
    ('shim_rne_post_constraint', None, [_ptr, _ptr]),
]:
    getattr(_lib, name).restype = restype
    getattr(_lib, name).argtypes = argtypes


def _view(pointer, size):
    return np.ctypeslib.as_array(pointer, shape=(size,)) if size > 0 else np.zeros(0)


class _Fields:
    pass


class MjModel:
    @staticmethod
    def from_xml_path(path):
        model = MjModel()
        model._handle = _lib.shim_load(path.encode())
        if not model._handle:
            raise ValueError(f'MuJoCo could not load {path}')
        model.nq, model.nv, model.nu, model.na, model.nbody = (_lib.shim_size(model._handle, i) for i in range(5))
        model.opt = _Fields()
        model.opt.timestep = _lib.shim_timestep(model._handle)
        model.vis = _Fields()
        model.vis.global_ = _Fields()
        model.actuator_ctrlrange = _view(_lib.shim_ctrlrange(model._handle), 2 * model.nu).reshape(model.nu, 2)
        return model


class MjData:
    def __init__(self, model):
        self._handle = _lib.shim_data(model._handle)
        array = lambda which, size: _view(_lib.shim_array(self._handle, which), size)
        self.qpos = array(0, model.nq)
        self.qvel = array(1, model.nv)
        self.ctrl = array(2, model.nu)
        self.act = array(3, model.na)
        self.xpos = array(4, 3 * model.nbody).reshape(model.nbody, 3)
        self.cfrc_ext = array(5, 6 * model.nbody).reshape(model.nbody, 6)


def mj_resetData(model, data):
    _lib.shim_reset(model._handle, data._handle)


def mj_forward(model, data):
    _lib.shim_forward(model._handle, data._handle)


def mj_step(model, data, nstep=1):
    _lib.shim_step(model._handle, data._handle, nstep)


def mj_rnePostConstraint(model, data):
    _lib.shim_rne_post_constraint(model._handle, data._handle)
