"""Tinkertoy: constrained dynamics after Witkin, and dyn4j-style rigid bodies.

    import tinkertoy

    if __name__ == "__main__":                # a script's sweep needs the guard (docs/python.md)
        scene = tinkertoy.load_scene("scenes/pendulum.json")
        sim = tinkertoy.Simulator(scene)
        trajectory = sim.run(2.0, every=10)  # dict of NumPy arrays
        sim.q[0] += 0.1                       # a writable view of the engine's state
        twin = scene.copy()                   # a scene of its own, for another Simulator
        table = tinkertoy.sweep(scene, {"particles[0].mass": [1, 2, 3]})   # on Dask

docs/python.md documents the whole API; help(tinkertoy.Simulator) documents each method.
"""

from ._tinkertoy import (
    BodyId,
    BodyPoint,
    BreakEvent,
    CircleCurve,
    ConstraintId,
    Curve,
    EllipseCurve,
    ErrorTolerance,
    ForceId,
    FormulaCurve,
    HelixCurve,
    LineCurve,
    Model,
    ProjectionSettings,
    Scene,
    SceneError,
    Settings,
    SettingsError,
    Shape,
    Collider,
    SimulationError,
    Simulator,
    SolverSettings,
    SplineCurve,
    StaleViewError,
    StateError,
    StepDiagnostics,
    TinkertoyError,
    VelocitySettings,
    load_scene,
    parse_scene,
)
from ._state_array import StateArray
from .sweep import grid, sweep

__all__ = [
    "BodyId",
    "BodyPoint",
    "BreakEvent",
    "CircleCurve",
    "ConstraintId",
    "Curve",
    "EllipseCurve",
    "ErrorTolerance",
    "ForceId",
    "FormulaCurve",
    "HelixCurve",
    "LineCurve",
    "Model",
    "ProjectionSettings",
    "Scene",
    "SceneError",
    "Settings",
    "SettingsError",
    "Shape",
    "Collider",
    "SimulationError",
    "Simulator",
    "SolverSettings",
    "SplineCurve",
    "StaleViewError",
    "StateArray",
    "StateError",
    "StepDiagnostics",
    "TinkertoyError",
    "VelocitySettings",
    "grid",
    "load_scene",
    "parse_scene",
    "sweep",
]
