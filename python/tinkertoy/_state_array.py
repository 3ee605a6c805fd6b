"""StateArray: a NumPy array over the engine's own q or v that refuses to be used once stale.

Simulator.q, .v, .body_q() and .body_v() return these views. Writing into one writes the
engine's state, which the simulator notices before its next step. Adding or removing a body
lays the state out again: the views made before are then stale, and every use of their data
raises StaleViewError: indexing, arithmetic, ufuncs, NumPy functions, printing, and every
ndarray method and data property (fill, put, sort, dot, view, flat, T, ctypes ...: the class
wraps all of ndarray's, see _guard_every_ndarray_attribute). Their memory stays valid (the
engine keeps the old storage while they exist), so even code that reaches the raw buffer
(np.asarray(view), memoryview(view)) reads the old values, never freed memory.

Slices of a view are views too, and guarded the same way; a copy (view.copy(), np.array(view))
is an ordinary array that stays valid.

The state takes finite numbers only: a write through a view that would put NaN or an infinity
into it (view[0] = nan, view[:] = inf, view += inf, view.fill(nan), np.copyto(view, ...)) is
undone and raises ValueError. A write that goes around the view's methods (np.asarray(view),
view.flat, the buffer) is caught by the simulator before its next step, which undoes it the same
way (PythonSimulator::noticeViewWrites).
"""

import numpy as np

from ._tinkertoy import StaleViewError

_MESSAGE = (
    "this view of the state was made before bodies were added to or removed from the model, "
    "so it no longer matches the model's layout: take sim.q, sim.v, sim.body_q() or sim.body_v() again"
)

# What stays unguarded: what NumPy and Python call to make and inspect the object (a stale view
# must still be created, finalized, sized and garbage-collected), and the metadata that reads no
# element. Everything else ndarray has is guarded.
_MACHINERY = frozenset({"__new__", "__array_finalize__", "__class_getitem__", "__doc__", "__hash__", "__sizeof__",
                        "__array_priority__"})
_METADATA = frozenset({"shape", "strides", "dtype", "size", "ndim", "itemsize", "nbytes", "flags", "base"})
# The ndarray methods and NumPy functions that write values into an array (their first argument).
_WRITING_METHODS = frozenset({"fill", "put", "itemset", "setfield", "byteswap"})
_WRITING_FUNCTIONS = frozenset({np.copyto, np.put, np.place, np.putmask, np.put_along_axis, np.fill_diagonal})


def _keeping_finite(views, write):
    """Runs write(), which may write into the StateArrays `views`; if it made an entry of one
    non-finite, puts every entry back as it was and raises ValueError."""
    views = [view for view in views if isinstance(view, StateArray)]
    before = [np.array(view.view(np.ndarray)) for view in views]
    result = write()
    for view, old in zip(views, before):
        if not np.all(np.isfinite(view.view(np.ndarray)) | ~np.isfinite(old)):
            for undone, was in zip(views, before):
                undone.view(np.ndarray)[...] = was
            raise ValueError(f"{view._name or 'state view'}: the state takes finite numbers only; a write of NaN or "
                             "infinity through this view was undone")
    return result


class StateArray(np.ndarray):
    """A writable view of the engine's q or v (see the module's documentation)."""

    def __array_finalize__(self, parent):
        # A view of the engine's memory shares its parent's keeper; an array NumPy made with
        # memory of its own (view.astype(float), np.sort(view)) is a copy, which never goes stale.
        keeper = getattr(parent, "_keeper", None)
        shares = keeper is not None and _memory_of(self) is keeper
        self._keeper = keeper if shares else None
        self._owner = getattr(parent, "_owner", None) if shares else None
        self._name = getattr(parent, "_name", None) if shares else None

    @property
    def stale(self):
        """Whether the model's layout changed since this view was made."""
        return self._keeper is not None and self._keeper.stale

    def _check(self):
        if self._keeper is not None and self._keeper.stale:
            raise StaleViewError(_MESSAGE)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        outputs = kwargs.get("out", ())
        for operand in inputs + tuple(outputs):
            if isinstance(operand, StateArray):
                operand._check()
        plain = tuple(x.view(np.ndarray) if isinstance(x, StateArray) else x for x in inputs)
        if outputs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, StateArray) else x for x in outputs)
        written = inputs[:1] if method == "at" else outputs  # ufunc.at writes into its first operand
        result = _keeping_finite(written, lambda: getattr(ufunc, method)(*plain, **kwargs))
        if not outputs or method == "at":
            return result
        # Written into `out`: hand back the given arrays, so `view += 1` stays a guarded view.
        if isinstance(result, tuple):
            return tuple(given if given is not None else r for given, r in zip(outputs, result))
        return outputs[0]

    def __array_function__(self, function, types, args, kwargs):
        self._check()
        call = lambda: super(StateArray, self).__array_function__(function, types, args, kwargs)  # noqa: E731
        return _keeping_finite(args[:1], call) if function in _WRITING_FUNCTIONS else call()

    def __setitem__(self, key, value):
        self._check()
        _keeping_finite([self], lambda: np.ndarray.__setitem__(self, key, value))

    def __array__(self, *args, **kwargs):
        self._check()
        return super().__array__(*args, **kwargs)

    def __repr__(self):
        self._check()
        return "StateArray(" + np.array2string(self.view(np.ndarray), separator=", ") + ")"

    def __str__(self):
        self._check()
        return str(self.view(np.ndarray))

    def __reduce__(self):
        # A pickled view is a copy: the engine's memory does not travel.
        self._check()
        return np.array(self.view(np.ndarray)).__reduce__()

    def copy(self, order="C"):
        self._check()
        return np.array(self.view(np.ndarray), order=order)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()


def _memory_of(array):
    """What holds an array's memory: the end of its chain of bases (the keeper, for a view of the
    engine's state; None for an array that owns its memory)."""
    while isinstance(array, np.ndarray):
        array = array.base
    return array


def guard(array, keeper, owner, name=None):
    """The StateArray over `array` (whose base is `keeper`), keeping `owner` alive; `name` ("q",
    "v") names it in messages."""
    view = array.view(StateArray)
    view._keeper = keeper
    view._owner = owner
    view._name = name
    return view


def _guarded_method(name, method):
    def guarded(self, *args, **kwargs):
        self._check()
        if name in _WRITING_METHODS:
            return _keeping_finite([self], lambda: method(self, *args, **kwargs))
        return method(self, *args, **kwargs)

    guarded.__name__ = name
    guarded.__qualname__ = "StateArray." + name
    guarded.__doc__ = method.__doc__
    return guarded


def _guarded_property(descriptor):
    def get(self):
        self._check()
        return descriptor.__get__(self, type(self))

    def set(self, value):
        self._check()
        descriptor.__set__(self, value)

    return property(get, set, doc=descriptor.__doc__)


def _guard_every_ndarray_attribute():
    """Wraps every method and data property of np.ndarray that StateArray does not define itself
    in a check for staleness, whatever NumPy version this is and whatever it adds."""
    for name, attribute in vars(np.ndarray).items():
        if name in _MACHINERY or name in _METADATA or name in vars(StateArray):
            continue
        if hasattr(attribute, "__get__") and hasattr(attribute, "__set__"):  # a getset descriptor: T, flat, data ...
            setattr(StateArray, name, _guarded_property(attribute))
        elif callable(attribute) and not isinstance(attribute, (classmethod, staticmethod)):
            setattr(StateArray, name, _guarded_method(name, attribute))


_guard_every_ndarray_attribute()
