"""StateArray: a NumPy array over the engine's own q or v that refuses to be used once stale.

Simulator.q, .v, .body_q() and .body_v() return these views. Writing into one writes the
engine's state, which the simulator notices before its next step. Adding or removing a body
lays the state out again: the views made before are then stale, and every NumPy operation on
them (indexing, arithmetic, ufuncs, NumPy functions, printing) raises StaleViewError. Their
memory stays valid (the engine keeps the old storage while they exist), so even code that
reaches the raw buffer reads the old values, never freed memory.

Slices of a view are views too, and guarded the same way; a copy (view.copy(), np.array(view))
is an ordinary array that stays valid.
"""

import numpy as np

from ._tinkertoy import StaleViewError

_MESSAGE = (
    "this view of the state was made before bodies were added to or removed from the model, "
    "so it no longer matches the model's layout: take sim.q, sim.v, sim.body_q() or sim.body_v() again"
)


class StateArray(np.ndarray):
    """A writable view of the engine's q or v (see the module's documentation)."""

    def __array_finalize__(self, parent):
        self._keeper = getattr(parent, "_keeper", None)
        self._owner = getattr(parent, "_owner", None)

    @property
    def stale(self):
        """Whether the model's layout changed since this view was made."""
        return self._keeper is not None and self._keeper.stale

    def _check(self):
        if self._keeper is not None and self._keeper.stale:
            raise StaleViewError(_MESSAGE)

    def __getitem__(self, index):
        self._check()
        return super().__getitem__(index)

    def __setitem__(self, index, value):
        self._check()
        super().__setitem__(index, value)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        for operand in inputs + tuple(kwargs.get("out", ())):
            if isinstance(operand, StateArray):
                operand._check()
        plain = tuple(x.view(np.ndarray) if isinstance(x, StateArray) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, StateArray) else x for x in kwargs["out"])
        return getattr(ufunc, method)(*plain, **kwargs)

    def __array_function__(self, function, types, args, kwargs):
        self._check()
        return super().__array_function__(function, types, args, kwargs)

    def __array__(self, *args, **kwargs):
        self._check()
        return super().__array__(*args, **kwargs)

    def __iter__(self):
        self._check()
        return super().__iter__()

    def __len__(self):
        self._check()
        return super().__len__()

    def __repr__(self):
        self._check()
        return "StateArray(" + np.array2string(self.view(np.ndarray), separator=", ") + ")"

    def __str__(self):
        self._check()
        return str(self.view(np.ndarray))

    def __float__(self):
        self._check()
        return super().__float__()

    def __reduce__(self):
        # A pickled view is a copy: the engine's memory does not travel.
        self._check()
        return np.array(self.view(np.ndarray)).__reduce__()

    def copy(self, order="C"):
        self._check()
        return np.array(self.view(np.ndarray), order=order)

    def tolist(self):
        self._check()
        return self.view(np.ndarray).tolist()


def guard(array, keeper, owner):
    """The StateArray over `array` (whose base is `keeper`), keeping `owner` alive."""
    view = array.view(StateArray)
    view._keeper = keeper
    view._owner = owner
    return view
