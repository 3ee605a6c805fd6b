"""How objects of the module's classes unpickle, at every pickle protocol.

Each class's __reduce__ (python/bindings/classes.cpp) names this function, with the class and
the object's state (its __getstate__): pickle finds a plain Python function by its module and
name, which it cannot do for a function of the compiled module.
"""

from ._tinkertoy import _rebuild


def rebuild(cls, state):
    """A new `cls` made from `state` by its __setstate__."""
    return _rebuild(cls, state)
